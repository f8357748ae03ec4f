// @tesseract.js-data/eng ships English traineddata and says where it is.
declare module '@tesseract.js-data/eng' {
  const data: { code: string; gzip: boolean; langPath: string };
  export default data;
}
