import { Avatar, Group, Menu, Text, UnstyledButton, useComputedColorScheme, useMantineColorScheme } from "@mantine/core";
import { IconLogout, IconSelector, IconUser } from "@tabler/icons-react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { languages } from "@/i18n/index.ts";
import { useCurrentUserContext } from "@/session/current-user-context.ts";
import { useSignOut } from "@/session/use-sign-out.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { displayName } from "@/lib/display-name.ts";
import classes from "./UserMenu.module.css";

const colorSchemes = ["light", "dark"] as const;

function initials(name: string): string {
  return name
    .split(/[\s@]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part.charAt(0).toLocaleUpperCase("tr-TR"))
    .join("");
}

/** The user menu at the foot of the sidebar: profile, language, theme and sign-out. */
export function UserMenu() {
  const { t, i18n } = useTranslation();
  const session = useSignedInSession();
  const context = useCurrentUserContext(session.user.id);
  const signOut = useSignOut();
  const { setColorScheme } = useMantineColorScheme();
  const colorScheme = useComputedColorScheme("light");

  const email = context.data?.user.email ?? session.user.email ?? "";
  const name = context.data ? displayName(context.data.user) : email;
  const languageLabelId = useId();
  const themeLabelId = useId();

  return (
    // No focus placeholder: a menu may hold only menu items, groups and separators (axe's aria-required-children).
    <Menu position="top-start" width="target" withArrow={false} shadow="md" withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton className={classes.target} aria-label={t("shell.userMenu", { name })}>
          <Group gap="sm" wrap="nowrap">
            <Avatar radius="xl" color="blue" aria-hidden>
              {initials(name)}
            </Avatar>
            <div className={classes.identity}>
              <Text size="sm" fw={600} truncate="end">
                {name}
              </Text>
              <Text size="xs" c="dimmed" truncate="end">
                {email}
              </Text>
            </div>
            <IconSelector size={16} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>

      <Menu.Dropdown>
        <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} aria-hidden />}>
          {t("shell.profile")}
        </Menu.Item>

        <Menu.Divider />
        <div role="group" aria-labelledby={languageLabelId}>
          <Menu.Label id={languageLabelId}>{t("language.label")}</Menu.Label>
          <Menu.RadioGroup value={i18n.resolvedLanguage ?? null} onChange={(language) => void i18n.changeLanguage(language)}>
            {languages.map((language) => (
              <Menu.RadioItem key={language} value={language} lang={language}>
                {t(`language.${language}`)}
              </Menu.RadioItem>
            ))}
          </Menu.RadioGroup>
        </div>

        <Menu.Divider />
        <div role="group" aria-labelledby={themeLabelId}>
          <Menu.Label id={themeLabelId}>{t("theme.label")}</Menu.Label>
          <Menu.RadioGroup value={colorScheme} onChange={(value) => setColorScheme(value as (typeof colorSchemes)[number])}>
            {colorSchemes.map((value) => (
              <Menu.RadioItem key={value} value={value}>
                {t(`theme.${value}`)}
              </Menu.RadioItem>
            ))}
          </Menu.RadioGroup>
        </div>

        <Menu.Divider />
        <Menu.Item
          // Red that keeps a 4.5:1 contrast on the menu in either theme (red.6 does not).
          color={colorScheme === "dark" ? "red.4" : "red.8"}
          leftSection={<IconLogout size={16} aria-hidden />}
          disabled={signOut.isPending}
          onClick={() => signOut.mutate()}
        >
          {t("auth.signOut.button")}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
