/**
 * The import's limits, stated on the page and enforced by the parser (the database checks
 * its own: 100,000 rows an import, 1,000 rows a batch). Zip limits guard XLSX files (zip
 * archives) before anything is inflated: a handful of kilobytes must not become gigabytes.
 */
export const importLimits = {
  maxFileBytes: 50 * 1024 * 1024,
  maxRows: 100_000,
  maxColumns: 200,
  /** Excel's own limit for one cell. */
  maxCellChars: 32_767,
  maxSheets: 50,
  batchRows: 1_000,
  maxZipEntries: 2_000,
  maxUncompressedBytes: 500 * 1024 * 1024,
  /** Uncompressed to compressed size of one zip entry. */
  maxCompressionRatio: 200,
} as const;

export type ImportLimits = { readonly [Key in keyof typeof importLimits]: number };
