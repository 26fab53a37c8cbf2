interface ImportMetaEnv {
  /** Defined by vite.config.ts at build time (the publishable key is public by design). */
  readonly VITE_SUPABASE_PUBLISHABLE_KEY: string;
  /** Optional; without it the app talks to the origin that served it. */
  readonly VITE_SUPABASE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
