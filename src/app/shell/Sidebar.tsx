import { AppShell, Image, NavLink, ScrollArea, Skeleton, Stack, Text } from "@mantine/core";
import { IconHome, IconLayoutDashboard, IconShieldLock, type Icon } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";
import { useCurrentUserContext } from "@/session/current-user-context.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { useAccess } from "@/features/admin/api/use-access.ts";
import { visibleAdminSections } from "@/features/admin/sections.ts";
import { useOrganizationLogo } from "@/session/organization-logo.ts";
import { salesPages } from "@/modules/registry.ts";
import { usePermittedModules } from "@/modules/use-permitted-modules.ts";
import { isCurrentPath } from "./navigation.ts";
import { UserMenu } from "./UserMenu.tsx";

interface Props {
  /** Called when a link is followed (on a phone, the sidebar then closes). */
  onNavigate: () => void;
}

/** The sidebar: the organization, the modules, the admin pages for admins, the user menu. */
export function Sidebar({ onNavigate }: Props) {
  const { t } = useTranslation();
  const session = useSignedInSession();
  const context = useCurrentUserContext(session.user.id);
  const access = useAccess();
  const permitted = usePermittedModules();
  const logo = useOrganizationLogo();
  const { pathname } = useLocation();
  const [adminOpened, setAdminOpened] = useState(() => isCurrentPath("/admin", pathname));

  const link = (path: string, label: string, ItemIcon: Icon, exact = false) => {
    const current = exact ? pathname === path : isCurrentPath(path, pathname);
    return (
      <NavLink
        key={path}
        component={Link}
        to={path}
        label={label}
        leftSection={<ItemIcon size={18} stroke={1.6} aria-hidden />}
        active={current}
        aria-current={current ? "page" : undefined}
        onClick={onNavigate}
      />
    );
  };

  return (
    <>
      <AppShell.Section px="md" py="sm" style={{ borderBottom: "1px solid var(--app-shell-border-color)" }}>
        <Text size="xs" c="dimmed">
          {t("shell.organizationLabel")}
        </Text>
        {logo.data && (
          <Image src={logo.data} alt="" h={40} w="auto" maw="100%" fit="contain" my={4} style={{ alignSelf: "flex-start" }} />
        )}
        {context.isSuccess ? (
          <Text fw={600} lineClamp={2}>
            {context.data.organization?.name ?? t("shell.noOrganization")}
          </Text>
        ) : (
          <Skeleton height={20} mt={4} width="70%" />
        )}
      </AppShell.Section>

      <AppShell.Section grow component={ScrollArea} px="xs" py="sm">
        <Stack gap={2}>
          {link("/", t("nav.home"), IconHome)}
          <Text component="h2" size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
            {t("nav.modules")}
          </Text>
          {permitted.pending
            ? salesPages.map(({ key }) => <Skeleton key={key} height={36} radius="sm" aria-hidden />)
            : permitted.modules.map(({ key, path, icon }) => link(path, t(`modules.${key}.title`), icon))}

          {access.status === "ready" && access.admin && (
            <>
              <Text component="h2" size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
                {t("nav.administration")}
              </Text>
              <NavLink
                component="button"
                type="button"
                label={t("nav.adminPages")}
                leftSection={<IconShieldLock size={18} stroke={1.6} aria-hidden />}
                opened={adminOpened}
                onChange={setAdminOpened}
                aria-expanded={adminOpened}
                aria-controls="admin-navigation"
              >
                <Stack gap={2} id="admin-navigation">
                  {link("/admin", t("admin.panel.title"), IconLayoutDashboard, true)}
                  {visibleAdminSections(access.superAdmin).map(({ key, path, icon }) =>
                    link(path, t(`admin.sections.${key}.title`), icon),
                  )}
                </Stack>
              </NavLink>
            </>
          )}
        </Stack>
      </AppShell.Section>

      <AppShell.Section p="xs" style={{ borderTop: "1px solid var(--app-shell-border-color)" }}>
        <UserMenu />
      </AppShell.Section>
    </>
  );
}
