// pdfjs-dist's legacy build (the one that runs on Node 20) bundles core-js,
// which swaps some built-ins process-wide for JavaScript versions that fix
// edge cases nothing here relies on: JSON.parse, JSON.stringify,
// Array.prototype.push and Function.prototype.toString among them. Those run
// several times slower, in every request of the process that loaded pdf.js.
// The built-ins are put back after loading; what core-js only adds stays.
const BUILT_INS: object[] = [
  JSON, Object, Object.prototype, Array, Array.prototype, Function.prototype, String, String.prototype,
  Promise, Promise.prototype, RegExp.prototype, Map, Map.prototype, Set, Set.prototype, Math, Symbol,
  ArrayBuffer.prototype, Uint8Array, Uint8Array.prototype, Error,
];

const originals = BUILT_INS.map((target) => ({ target, descriptors: Object.getOwnPropertyDescriptors(target) }));
const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
for (const { target, descriptors } of originals) {
  for (const key of Reflect.ownKeys(descriptors)) {
    const original = descriptors[key as keyof typeof descriptors]!;
    const now = Object.getOwnPropertyDescriptor(target, key);
    if (now && (now.value !== original.value || now.get !== original.get) && original.configurable) Object.defineProperty(target, key, original);
  }
}

export const { getDocument, OPS } = pdfjs;
