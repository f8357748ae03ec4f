// talisman ships no type declarations; only the functions used here.
declare module 'talisman/metrics/jaro-winkler.js' {
  export default function jaroWinkler(a: string, b: string): number;
}
