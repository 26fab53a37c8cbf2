// pdfmake ships no types. Its browser build, as pdfmake-browser.ts uses it: the engine API
// plus the virtual file system the fonts are written to.
declare module "pdfmake/build/pdfmake.min.js" {
  const pdfMake: import("./pdfmake-engine.ts").PdfMakeInstance & {
    /** Files by name, as base64 text. */
    addVirtualFileSystem(files: Record<string, string>): void;
  };
  export default pdfMake;
}
