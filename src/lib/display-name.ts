interface NamedUser {
  email: string;
  first_name: string | null;
  last_name: string | null;
}

/** "First Last" for greeting a user; the email address when no name is on record. */
export function displayName(user: NamedUser): string {
  const name = [user.first_name, user.last_name]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(" ");
  return name || user.email;
}
