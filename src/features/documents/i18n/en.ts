import type { tr } from "./tr.ts";

/** English texts of the documents module, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  modules: {
    documents: {
      title: "Documents",
      description: "Files and documents attached to records.",
      emptyTitle: "No documents yet",
      emptyDescription: "Documents you upload or attach to records are listed here.",
      detailTitle: "Document Details",
      detailDescription: "A document's versions, its preview and the record it belongs to.",
      backToList: "Back to documents",
      upload: "Upload document",
      views: {
        label: "Documents shown",
        active: "Documents",
        deleted: "Deleted",
      },
      deletedDescription: "A deleted document's files are kept; restored, it comes back with its versions.",
      uploadTitle: "Upload a document",
      list: {
        label: "Document list",
        searchPlaceholder: "Title or file name",
        total: "{{count}} documents in total",
        totalCapped: "{{count}}+ documents",
        noMatch: "No document matches your search and filters.",
        loadError: "The documents could not be loaded.",
      },
      filters: {
        linkModule: "Linked module",
        anyRecord: "All",
        linkRecord: "{{module}} record",
        nothingFound: "No record found",
        chooseRecord: "All documents linked to {{module}} records; choose a record for its documents only.",
      },
      fields: {
        title: "Title",
        file_name: "File",
        linked: "Linked record",
        mime_type: "Type",
        size_bytes: "Size",
        current_version: "Version",
        owner: "Owner",
        created_at: "Created",
        updated_at: "Updated",
      },
      linkedModules: {
        customers: "Customer",
        contacts: "Contact",
        deals: "Deal",
        quotes: "Quote",
        contracts: "Contract",
        none: "Not linked",
      },
      detail: {
        tabs: {
          versions: "Versions",
          preview: "Preview",
          info: "Details",
        },
        openRecord: "Open the {{module}}",
        notLinked: "This document is not linked to a record.",
        deleted: "“{{title}}” was deleted.",
        deleteFailed: "The document could not be deleted",
        download: "Download the current version",
      },
    },
  },
};
