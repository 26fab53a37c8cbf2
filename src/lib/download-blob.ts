/** Saves a Blob made in the browser (a PDF, an export) under `fileName`, through a temporary object URL. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
