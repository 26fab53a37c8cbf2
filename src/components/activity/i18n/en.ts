import type { tr } from "./tr.ts";

/** English texts of what was done (timeline, home, audit log), typed against the Turkish ones. */
export const en: typeof tr = {
  activity: {
    system: "System",
    deletedUser: "Deleted user",
    deletedRecord: "Deleted record",
    unknown: "{{actor}} did something",
    unknownLabel: "Other action",
    sentences: {
      record: {
        create: "{{actor}} created the record",
        update: "{{actor}} updated the record",
        delete: "{{actor}} deleted the record",
        restore: "{{actor}} restored the record",
        note: "{{actor}} added a note",
        merge: "{{actor}} merged another record into this one",
        merged_away: "{{actor}} merged the record into another one",
        export: "{{actor}} exported records",
        import: "{{actor}} imported records from a file",
        import_revert: "{{actor}} reverted an import",
      },
      contacts: {
        data_exported: "{{actor}} exported the contact's personal data",
        erased: "{{actor}} erased the contact's personal data (KVKK)",
      },
      deals: {
        contacts: "{{actor}} changed the deal's contacts",
      },
      quotes: {
        revise: "{{actor}} created a new revision of the quote",
      },
      contracts: {
        renew: "{{actor}} renewed the contract",
        terminate: "{{actor}} terminated the contract",
        expire: "{{actor}} recorded that the contract expired",
      },
      documents: {
        create: "{{actor}} uploaded the document",
        version: "{{actor}} created a new version",
      },
      products: {
        activate: "{{actor}} put the product on sale",
        deactivate: "{{actor}} took the product off sale",
      },
      user: {
        created: "{{actor}} created the user",
        updated: "{{actor}} updated the user's details",
        deleted: "{{actor}} deleted the user",
        removed: "{{actor}} removed the user from the organization",
        locked: "{{actor}} locked the user's account",
        unlocked: "{{actor}} unlocked the user's account",
        password_reset: "{{actor}} reset the user's password",
        password_reset_by_email: "The user reset their password through an e-mailed link",
        password_changed: "{{actor}} changed their own password",
        password_synced: "The user's password was synchronised at sign-in",
        records_transferred: "{{actor}} transferred the user's records to another user",
        access_refused: "{{actor}}, an admin of another organization, tried to reach this user; access was refused",
      },
      organization: {
        created: "{{actor}} created the organization",
        updated: "{{actor}} updated the organization's details",
        tables_provisioned: "{{actor}} prepared the organization's tables",
      },
      role: {
        saved: "{{actor}} saved the role",
        deleted: "{{actor}} deleted the role",
      },
      settings: {
        updated: "{{actor}} updated the settings",
        logo_updated: "{{actor}} changed the organization's logo",
        logo_removed: "{{actor}} removed the organization's logo",
        mail: "{{actor}} changed the e-mail settings",
      },
      template: {
        saved: "{{actor}} saved the document template",
        deleted: "{{actor}} deleted the document template",
      },
      mail_templates: {
        updated: "{{actor}} changed an e-mail template",
        reset: "{{actor}} reset an e-mail template to the default",
      },
      session: {
        super_admin_entered: "Super admin {{actor}} entered the organization",
        super_admin_left: "Super admin {{actor}} left the organization",
        super_admin_switched: "Super admin {{actor}} switched to this organization",
      },
      mail: {
        sent: "{{actor}} sent an e-mail",
        failed: "{{actor}} could not send an e-mail",
      },
      custom_fields: {
        create: "{{actor}} added a custom field",
        update: "{{actor}} changed a custom field",
        delete: "{{actor}} deleted a custom field",
      },
    },
    labels: {
      record: {
        create: "Record created",
        update: "Record updated",
        delete: "Record deleted",
        restore: "Record restored",
        note: "Note added",
        merge: "Records merged",
        merged_away: "Merged into another record",
        export: "Export",
        import: "Import",
        import_revert: "Import reverted",
      },
      contacts: {
        data_exported: "Personal data exported",
        erased: "Personal data erased (KVKK)",
      },
      deals: {
        contacts: "Deal contacts changed",
      },
      quotes: {
        revise: "Quote revised",
      },
      contracts: {
        renew: "Contract renewed",
        terminate: "Contract terminated",
        expire: "Contract expired",
      },
      documents: {
        create: "Document uploaded",
        version: "New version",
      },
      products: {
        activate: "Product put on sale",
        deactivate: "Product taken off sale",
      },
      user: {
        created: "User created",
        updated: "User updated",
        deleted: "User deleted",
        removed: "Removed from the organization",
        locked: "Account locked",
        unlocked: "Account unlocked",
        password_reset: "Password reset",
        password_reset_by_email: "Password reset by e-mail",
        password_changed: "Own password changed",
        password_synced: "Password synchronised",
        records_transferred: "Records transferred",
        access_refused: "Access refused",
      },
      organization: {
        created: "Organization created",
        updated: "Organization updated",
        tables_provisioned: "Tables prepared",
      },
      role: {
        saved: "Role saved",
        deleted: "Role deleted",
      },
      settings: {
        updated: "Settings updated",
        logo_updated: "Logo changed",
        logo_removed: "Logo removed",
        mail: "Mail settings changed",
      },
      template: {
        saved: "Template saved",
        deleted: "Template deleted",
      },
      mail_templates: {
        updated: "E-mail template changed",
        reset: "E-mail template reset",
      },
      session: {
        super_admin_entered: "Super admin entered",
        super_admin_left: "Super admin left",
        super_admin_switched: "Super admin switched in",
      },
      mail: {
        sent: "E-mail sent",
        failed: "E-mail not sent",
      },
      custom_fields: {
        create: "Custom field added",
        update: "Custom field changed",
        delete: "Custom field deleted",
      },
    },
    groups: {
      customers: "Customers",
      contacts: "Contacts",
      deals: "Deals",
      quotes: "Quotes",
      contracts: "Contracts",
      documents: "Documents",
      tasks: "Tasks",
      products: "Products",
      user: "Users",
      organization: "Organization",
      role: "Roles",
      settings: "Settings",
      template: "Document templates",
      mail_templates: "E-mail templates",
      session: "Super admin",
      mail: "E-mail",
      custom_fields: "Custom fields",
    },
  },
};
