/** The image types the database takes for a logo (SVG is not among them: it can carry scripts). */
export const logoContentTypes = ["image/png", "image/jpeg", "image/webp"] as const;
export type LogoContentType = (typeof logoContentTypes)[number];
