import type { OcrBackendName } from '../../src/analysis/engines/ocr/backend.ts';
import { availableOcrBackends } from '../../src/analysis/engines/select.ts';

/** The OCR backends this machine has: tesseract.js always, the tesseract program when installed. */
export const OCR_BACKENDS: OcrBackendName[] = availableOcrBackends();
const cliReadsEnglish = OCR_BACKENDS.includes('tesseract');
// CI installs Debian's tesseract and sets this, so that both backends are tested there.
if (process.env.REQUIRE_TESSERACT === '1' && !cliReadsEnglish) {
  throw new Error('REQUIRE_TESSERACT=1 but the tesseract program with English data is not installed');
}
