import { TextInput } from "@mantine/core";
import { IconSearch } from "@tabler/icons-react";

/** The search box of the admin lists: labelled, with an icon, full width on a phone. */
export function SearchField({ label, placeholder, value, onChange }: {
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <TextInput
      type="search"
      label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      w={{ base: "100%", sm: 280 }}
    />
  );
}
