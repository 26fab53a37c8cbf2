/** The labels of a contact's emails and phones, the KVKK consent channels and the İYS channels (the database's rules). */
export const channelLabels = ["work", "home", "mobile", "other"] as const;
export type ChannelLabel = (typeof channelLabels)[number];
export const consentChannels = ["form", "email", "phone", "in_person", "other"] as const;
export type ConsentChannel = (typeof consentChannels)[number];
export const iysChannels = ["call", "sms", "email"] as const;
export type IysChannel = (typeof iysChannels)[number];

export const contactFields = [
  "customer_id",
  "first_name",
  "last_name",
  "title",
  "emails",
  "phones",
  "tags",
  "description",
  "kvkk_consent",
  "kvkk_consent_channel",
  "kvkk_consent_source",
  "iys_consent",
] as const;
export type ContactField = (typeof contactFields)[number];
