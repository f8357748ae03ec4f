import type { AuthenticatedKey } from './auth/api-keys.ts';
import type { SharedReadTransaction, TenantDatabase } from './db/tenant.ts';
import type { AnalysisService } from './analysis/analysis-service.ts';
import type { FileService } from './files/file-service.ts';
import type { OnboardingService } from './onboarding/onboarding-service.ts';
import type { ScreeningService } from './screening/screening-service.ts';
import type { WatchlistService } from './screening/watchlist-service.ts';

/** What every resolver sees. Built once per request, after authentication. */
export interface Context {
  requestId: string;
  apiKey: AuthenticatedKey;
  /** Scoped to the key's organization (src/db/tenant.ts). */
  db: TenantDatabase;
  /** Query operations read through this one transaction (src/http/read-transaction.ts). */
  readTransaction: SharedReadTransaction;
  files: FileService;
  analysis: AnalysisService;
  watchlists: WatchlistService;
  screening: ScreeningService;
  onboarding: OnboardingService;
  /** Whether endpoint URLs may name loopback or private networks (config WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
  webhooks: { allowPrivateNetworks: boolean };
}
