/** Mantine's styles whole: loaded with every page after the first screen (lazy-page.ts). */
import "@mantine/core/styles.css";
