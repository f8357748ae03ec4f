import type { TenantDatabase } from '../db/tenant.ts';
import { assessRisk } from './assess.ts';
import { businessRiskInput, consumerRiskInput } from './case-inputs.ts';
import { EDD_TASKS } from './edd.ts';

export type AssessedCase = { consumerCaseId: string } | { businessCaseId: string };

/**
 * Assesses a case as it stands, keeps the assessment (inputs, factors,
 * EDD checklist) as a new history entry, and opens a task for each EDD item
 * the case does not already have one for. Returns the assessment's id.
 */
export async function assessCase(db: TenantDatabase, organizationId: string, target: AssessedCase, requestedBy: string, asOf = new Date()): Promise<string> {
  const input = 'consumerCaseId' in target ? await consumerRiskInput(db, target.consumerCaseId) : await businessRiskInput(db, target.businessCaseId);
  const result = assessRisk(input, asOf);
  const existing = await db.task.findMany({ where: { ...target, status: { not: 'CANCELLED' } }, select: { id: true, title: true } });
  const taskIds: string[] = [];
  for (const { item, reason } of result.eddChecklist) {
    const { title, description } = EDD_TASKS[item];
    const open = existing.find((task) => task.title === title);
    if (open) {
      taskIds.push(open.id);
      continue;
    }
    const task = await db.task.create({
      data: {
        ...target,
        title,
        description: `${description}\n\nWhy: ${reason}`,
        priority: result.level === 'HIGH' || result.level === 'PROHIBITED' ? 'HIGH' : 'MEDIUM',
      } as never,
      select: { id: true },
    });
    taskIds.push(task.id);
  }
  const assessment = await db.riskAssessment.create({
    data: {
      ...target,
      organizationId,
      riskScore: result.riskScore,
      level: result.level,
      factors: result.factors as unknown as object[],
      edd: { required: result.eddRequired, reasons: result.eddReasons, checklist: result.eddChecklist, taskIds, notAssessed: result.notAssessed } as object,
      inputs: input as unknown as object,
      modelVersion: result.modelVersion,
      fatfListDate: result.fatfListDate,
      requestedBy,
    },
    select: { id: true },
  });
  return assessment.id;
}
