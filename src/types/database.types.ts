
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  
  "public": {
          Tables: {
            [_ in never]: never
          }
          Views: {
            [_ in never]: never
          }
          Functions: {
            "accept_quote":
{ Args: { "p_id": string,"p_mark_deal_won"?: boolean,"p_updated_at": string }; Returns: Json
                           },
"accept_terms":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"add_record_note":
{ Args: { "p_body": string,"p_id": string,"p_module": string }; Returns: Json
                           },
"analyze_user_records":
{ Args: { "organization_slug"?: string,"target_user_id": string }; Returns: Json
                           },
"begin_document_upload":
{ Args: { "p_document_id": string,"p_file_name": string,"p_mime_type": string,"p_module": string,"p_record_id": string,"p_sha256": string,"p_size_bytes": number,"p_title": string }; Returns: Json
                           },
"bind_session_organization":
{ Args: { "p_organization_id"?: string }; Returns: Json
                           },
"bulk_update_contacts":
{ Args: { "p_ids": (string)[],"p_values": Json }; Returns: Json
                           },
"bulk_update_contracts":
{ Args: { "p_ids": (string)[],"p_values": Json }; Returns: Json
                           },
"bulk_update_customers":
{ Args: { "p_ids": (string)[],"p_values": Json }; Returns: Json
                           },
"bulk_update_deals":
{ Args: { "p_ids": (string)[],"p_values": Json }; Returns: Json
                           },
"bulk_update_documents":
{ Args: { "p_ids": (string)[],"p_values": Json }; Returns: Json
                           },
"bulk_update_quotes":
{ Args: { "p_ids": (string)[],"p_values": Json }; Returns: Json
                           },
"bulk_update_tasks":
{ Args: { "p_ids": (string)[],"p_values": Json }; Returns: Json
                           },
"can_receive_realtime_topic":
{ Args: { "p_topic": string }; Returns: boolean
                           },
"cancel_document_upload":
{ Args: { "p_upload_id": string }; Returns: Json
                           },
"change_my_password":
{ Args: { "p_current_password": string,"p_new_password": string }; Returns: Json
                           },
"check_import_rows":
{ Args: { "p_kind": string,"p_match_key": string,"p_mode": string,"p_rows": Json }; Returns: Json
                           },
"complete_task":
{ Args: { "p_id": string,"p_updated_at"?: string }; Returns: Json
                           },
"count_custom_field_values":
{ Args: { "p_key": string,"p_module": string }; Returns: Json
                           },
"create_auth_user_admin":
{ Args: { "p_email": string,"p_first_name"?: string,"p_last_name"?: string,"p_password": string }; Returns: Json
                           },
"create_contact":
{ Args: { "p_values": Json }; Returns: Json
                           },
"create_contract":
{ Args: { "p_values": Json }; Returns: Json
                           },
"create_contract_from_quote":
{ Args: { "p_quote_id": string,"p_values"?: Json }; Returns: Json
                           },
"create_customer":
{ Args: { "p_values": Json }; Returns: Json
                           },
"create_deal":
{ Args: { "p_values": Json }; Returns: Json
                           },
"create_document":
{ Args: { "p_values": Json }; Returns: Json
                           },
"create_organization":
{ Args: { "p_admin_email"?: string,"p_admin_first_name"?: string,"p_admin_last_name"?: string,"p_admin_password"?: string,"p_name": string,"p_slug": string,"p_subscription_plan"?: string }; Returns: Json
                           },
"create_organization_tables":
{ Args: { "org_slug": string }; Returns: Json
                           },
"create_quote":
{ Args: { "p_values": Json }; Returns: Json
                           },
"create_task":
{ Args: { "p_values": Json }; Returns: Json
                           },
"create_user_secure":
{ Args: { "p_email": string,"p_first_name"?: string,"p_last_name"?: string,"p_organization_id": string,"p_password": string,"p_role"?: string }; Returns: Json
                           },
"delete_contacts":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"delete_contracts":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"delete_custom_field":
{ Args: { "p_key": string,"p_module": string }; Returns: Json
                           },
"delete_customers":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"delete_deals":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"delete_document_template":
{ Args: { "p_id": string }; Returns: Json
                           },
"delete_documents":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"delete_import_mapping":
{ Args: { "p_id": string }; Returns: Json
                           },
"delete_quotes":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"delete_role":
{ Args: { "p_key": string }; Returns: Json
                           },
"delete_saved_view":
{ Args: { "p_id": string,"p_module": string }; Returns: Json
                           },
"delete_tasks":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"delete_user_secure":
{ Args: { "p_organization_id"?: string,"p_user_id": string }; Returns: Json
                           },
"document_object_readable":
{ Args: { "p_name": string }; Returns: boolean
                           },
"erase_contact":
{ Args: { "p_id": string }; Returns: Json
                           },
"export_contact_data":
{ Args: { "p_id": string }; Returns: Json
                           },
"export_records":
{ Args: { "p_cursor"?: Json,"p_descending"?: boolean,"p_filters"?: Json,"p_limit"?: number,"p_module": string,"p_search"?: string,"p_sort"?: string }; Returns: Json
                           },
"find_contact_duplicates":
{ Args: { "p_exclude"?: string,"p_values": Json }; Returns: Json
                           },
"find_customer_duplicates":
{ Args: { "p_exclude"?: string,"p_values": Json }; Returns: Json
                           },
"finish_document_upload":
{ Args: { "p_upload_id": string }; Returns: Json
                           },
"finish_import":
{ Args: { "p_cancelled"?: boolean,"p_import_id": string }; Returns: Json
                           },
"get_audit_log":
{ Args: { "p_action"?: string,"p_actor_id"?: string,"p_before_id"?: number,"p_from"?: string,"p_limit"?: number,"p_organization_slug"?: string,"p_to"?: string }; Returns: Json
                           },
"get_contact":
{ Args: { "p_id": string }; Returns: Json
                           },
"get_contract":
{ Args: { "p_id": string }; Returns: Json
                           },
"get_contract_details":
{ Args: { "p_id": string }; Returns: Json
                           },
"get_current_user_context":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"get_customer":
{ Args: { "p_id": string }; Returns: Json
                           },
"get_dashboard":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"get_deal":
{ Args: { "p_id": string }; Returns: Json
                           },
"get_deal_board":
{ Args: { "p_filters"?: Json,"p_per_stage"?: number }; Returns: Json
                           },
"get_deal_board_stage":
{ Args: { "p_cursor"?: Json,"p_filters"?: Json,"p_limit"?: number,"p_stage": string }; Returns: Json
                           },
"get_deal_details":
{ Args: { "p_id": string }; Returns: Json
                           },
"get_deal_forecast":
{ Args: { "p_months"?: number,"p_owner"?: string }; Returns: Json
                           },
"get_deal_stage_history":
{ Args: { "p_id": string }; Returns: Json
                           },
"get_default_document_template":
{ Args: { "p_kind": string }; Returns: Json
                           },
"get_document":
{ Args: { "p_id": string }; Returns: Json
                           },
"get_document_details":
{ Args: { "p_id": string }; Returns: Json
                           },
"get_document_usage":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"get_import":
{ Args: { "p_import_id": string }; Returns: Json
                           },
"get_login_attempts":
{ Args: { "p_limit"?: number,"p_user_id"?: string }; Returns: Json
                           },
"get_mail_settings":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"get_mail_template":
{ Args: { "p_kind": string,"p_language": string }; Returns: Json
                           },
"get_my_organizations":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"get_my_permissions":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"get_notification_preferences":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"get_notifications":
{ Args: { "p_before"?: string,"p_limit"?: number,"p_unread_only"?: boolean }; Returns: Json
                           },
"get_organization_logo":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"get_organization_settings":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"get_organization_tables":
{ Args: { "p_organization_slug"?: string }; Returns: Json
                           },
"get_organization_users":
{ Args: { "p_descending"?: boolean,"p_limit"?: number,"p_offset"?: number,"p_organization_slug"?: string,"p_role"?: string,"p_search"?: string,"p_sort"?: string,"p_status"?: string }; Returns: Json
                           },
"get_quote":
{ Args: { "p_id": string }; Returns: Json
                           },
"get_quote_details":
{ Args: { "p_id": string }; Returns: Json
                           },
"get_record_timeline":
{ Args: { "p_id": string,"p_module": string }; Returns: Json
                           },
"get_roles":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"get_task":
{ Args: { "p_id": string }; Returns: Json
                           },
"get_task_views":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"get_unread_notification_count":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"get_user_info_by_email":
{ Args: { "user_email": string }; Returns: Json
                           },
"get_users_for_transfer":
{ Args: { "exclude_user_id"?: string,"organization_slug"?: string }; Returns: Json
                           },
"issue_request_token":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"list_contacts":
{ Args: { "p_descending"?: boolean,"p_filters"?: Json,"p_limit"?: number,"p_offset"?: number,"p_search"?: string,"p_sort"?: string }; Returns: Json
                           },
"list_contracts":
{ Args: { "p_descending"?: boolean,"p_filters"?: Json,"p_limit"?: number,"p_offset"?: number,"p_search"?: string,"p_sort"?: string }; Returns: Json
                           },
"list_contracts_ending":
{ Args: { "p_days"?: number }; Returns: Json
                           },
"list_custom_fields":
{ Args: { "p_module": string }; Returns: Json
                           },
"list_customers":
{ Args: { "p_descending"?: boolean,"p_filters"?: Json,"p_limit"?: number,"p_offset"?: number,"p_search"?: string,"p_sort"?: string }; Returns: Json
                           },
"list_deals":
{ Args: { "p_descending"?: boolean,"p_filters"?: Json,"p_limit"?: number,"p_offset"?: number,"p_search"?: string,"p_sort"?: string }; Returns: Json
                           },
"list_document_templates":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"list_documents":
{ Args: { "p_descending"?: boolean,"p_filters"?: Json,"p_limit"?: number,"p_offset"?: number,"p_search"?: string,"p_sort"?: string }; Returns: Json
                           },
"list_import_mappings":
{ Args: { "p_kind": string }; Returns: Json
                           },
"list_imports":
{ Args: { "p_kind"?: string,"p_limit"?: number }; Returns: Json
                           },
"list_mail_templates":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"list_organization_members":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"list_organizations":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"list_products":
{ Args: { "p_include_inactive"?: boolean,"p_search"?: string }; Returns: Json
                           },
"list_quotes":
{ Args: { "p_descending"?: boolean,"p_filters"?: Json,"p_limit"?: number,"p_offset"?: number,"p_search"?: string,"p_sort"?: string }; Returns: Json
                           },
"list_record_documents":
{ Args: { "p_module": string,"p_record_id": string }; Returns: Json
                           },
"list_saved_views":
{ Args: { "p_module": string }; Returns: Json
                           },
"list_tasks":
{ Args: { "p_descending"?: boolean,"p_filters"?: Json,"p_limit"?: number,"p_offset"?: number,"p_search"?: string,"p_sort"?: string }; Returns: Json
                           },
"lock_user_secure":
{ Args: { "p_user_id": string }; Returns: Json
                           },
"mail_begin_send":
{ Args: { "p_kind": string,"p_recipients": (string)[],"p_record"?: Json,"p_subject": string }; Returns: Json
                           },
"mail_delivery_settings":
{ Args: { "p_mail_id": string }; Returns: Json
                           },
"mail_finish_send":
{ Args: { "p_error_code"?: string,"p_mail_id": string,"p_sent": boolean }; Returns: Json
                           },
"mark_all_notifications_read":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"mark_notifications_read":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"merge_contacts":
{ Args: { "p_other": string,"p_survivor": string,"p_values"?: Json }; Returns: Json
                           },
"merge_customers":
{ Args: { "p_other": string,"p_survivor": string,"p_values"?: Json }; Returns: Json
                           },
"move_deal":
{ Args: { "p_id": string,"p_lost_reason"?: string,"p_stage": string,"p_updated_at": string }; Returns: Json
                           },
"notification_digests_begin":
{ Args: { "p_installation_mail": boolean }; Returns: Json
                           },
"password_reset_begin":
{ Args: { "p_client_address": string,"p_email": string,"p_installation_mail": boolean,"p_language": string }; Returns: Json
                           },
"password_reset_complete":
{ Args: { "p_client_address": string,"p_password": string,"p_token": string }; Returns: Json
                           },
"preview_quote_totals":
{ Args: { "p_items": Json,"p_values": Json }; Returns: Json
                           },
"reject_quote":
{ Args: { "p_id": string,"p_reason": string,"p_updated_at": string }; Returns: Json
                           },
"remove_organization_logo":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"renew_contract":
{ Args: { "p_end_date"?: string,"p_id": string,"p_increase_percent"?: number,"p_start_date"?: string,"p_updated_at": string,"p_value"?: number }; Returns: Json
                           },
"reset_mail_template":
{ Args: { "p_kind": string,"p_language": string }; Returns: Json
                           },
"resolve_table_name_bypass":
{ Args: { "base_table_name": string,"org_slug": string }; Returns: Json
                           },
"restore_contacts":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"restore_contracts":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"restore_customers":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"restore_deals":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"restore_documents":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"restore_quotes":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"restore_tasks":
{ Args: { "p_ids": (string)[] }; Returns: Json
                           },
"revert_import":
{ Args: { "p_import_id": string }; Returns: Json
                           },
"revise_quote":
{ Args: { "p_id": string }; Returns: Json
                           },
"run_import_batch":
{ Args: { "p_batch": number,"p_import_id": string,"p_rows": Json }; Returns: Json
                           },
"save_custom_field":
{ Args: { "p_field": Json,"p_module": string }; Returns: Json
                           },
"save_document_template":
{ Args: { "p_body": string,"p_id": string,"p_is_default"?: boolean,"p_kind": string,"p_name": string }; Returns: Json
                           },
"save_import_mapping":
{ Args: { "p_kind": string,"p_mapping": Json,"p_name": string }; Returns: Json
                           },
"save_mail_settings":
{ Args: { "p_settings": Json }; Returns: Json
                           },
"save_mail_template":
{ Args: { "p_body": string,"p_kind": string,"p_language": string,"p_subject": string }; Returns: Json
                           },
"save_notification_preferences":
{ Args: { "p_email_digest"?: boolean,"p_kinds": (string)[] }; Returns: Json
                           },
"save_product":
{ Args: { "p_id": string,"p_updated_at"?: string,"p_values": Json }; Returns: Json
                           },
"save_quote":
{ Args: { "p_id": string,"p_items": Json,"p_updated_at"?: string,"p_values": Json }; Returns: Json
                           },
"save_role":
{ Args: { "p_key": string,"p_name": string,"p_permissions": Json }; Returns: Json
                           },
"save_saved_view":
{ Args: { "p_definition": Json,"p_id": string,"p_is_shared"?: boolean,"p_module": string,"p_name": string }; Returns: Json
                           },
"search_records":
{ Args: { "p_limit"?: number,"p_query": string }; Returns: Json
                           },
"secure_login_prepare_auth":
{ Args: { "p_email": string,"p_organization_slug"?: string,"p_password": string }; Returns: Json
                           },
"send_quote":
{ Args: { "p_id": string,"p_updated_at": string }; Returns: Json
                           },
"set_deal_contacts":
{ Args: { "p_contact_ids": (string)[],"p_id": string }; Returns: Json
                           },
"set_organization_logo":
{ Args: { "p_content_type": string,"p_image_base64": string }; Returns: Json
                           },
"set_product_active":
{ Args: { "p_active": boolean,"p_id": string }; Returns: Json
                           },
"sign_document_download":
{ Args: { "p_object_path": string,"p_seconds"?: number,"p_token_hash": string }; Returns: Json
                           },
"simple_reset_password":
{ Args: { "p_new_password": string,"p_user_id": string }; Returns: Json
                           },
"start_import":
{ Args: { "p_file_hash": string,"p_file_name": string,"p_file_size": number,"p_kind": string,"p_mapping": Json,"p_match_key": string,"p_mode": string,"p_total_rows": number }; Returns: Json
                           },
"super_admin_switch_organization":
{ Args: { "p_organization_id": string }; Returns: Json
                           },
"sync_user_password":
{ Args: { "p_email": string,"p_password": string }; Returns: Json
                           },
"terminate_contract":
{ Args: { "p_id": string,"p_reason": string,"p_updated_at": string }; Returns: Json
                           },
"test_auth_uid":
{ Args: Record<PropertyKey, never>; Returns: Json
                           },
"transfer_user_records":
{ Args: { "from_user_id": string,"kinds"?: (string)[],"organization_slug"?: string,"to_user_id": string }; Returns: Json
                           },
"unlock_user_secure":
{ Args: { "p_user_id": string }; Returns: Json
                           },
"update_contact":
{ Args: { "p_id": string,"p_updated_at": string,"p_values": Json }; Returns: Json
                           },
"update_contract":
{ Args: { "p_id": string,"p_updated_at": string,"p_values": Json }; Returns: Json
                           },
"update_customer":
{ Args: { "p_id": string,"p_updated_at": string,"p_values": Json }; Returns: Json
                           },
"update_deal":
{ Args: { "p_id": string,"p_updated_at": string,"p_values": Json }; Returns: Json
                           },
"update_document":
{ Args: { "p_id": string,"p_updated_at": string,"p_values": Json }; Returns: Json
                           },
"update_my_profile":
{ Args: { "p_first_name": string,"p_last_name": string,"p_phone"?: string }; Returns: Json
                           },
"update_organization":
{ Args: { "p_changes": Json,"p_organization_id": string }; Returns: Json
                           },
"update_organization_settings":
{ Args: { "p_changes": Json }; Returns: Json
                           },
"update_quote":
{ Args: { "p_id": string,"p_updated_at": string,"p_values": Json }; Returns: Json
                           },
"update_task":
{ Args: { "p_id": string,"p_updated_at": string,"p_values": Json }; Returns: Json
                           },
"update_user_last_login":
{ Args: { "p_user_id": string }; Returns: Json
                           },
"update_user_secure":
{ Args: { "p_organization_slug"?: string,"p_user_data": Json,"p_user_id": string }; Returns: Json
                           },
"validate_organization_slug":
{ Args: { "org_slug": string }; Returns: Json
                           },
"verify_request_token":
{ Args: { "p_token": string }; Returns: boolean
                           }
          }
          Enums: {
            [_ in never]: never
          }
          CompositeTypes: {
            [_ in never]: never
          }
        }
}

type DatabaseWithoutInternals = Omit<Database, '__InternalSupabase'>

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
  ? (DefaultSchema["Tables"] & DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
      Row: infer R
    }
    ? R
    : never
  : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
  ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
      Insert: infer I
    }
    ? I
    : never
  : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
  ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
      Update: infer U
    }
    ? U
    : never
  : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never = never
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
  ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
  : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never = never
> = PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
  ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
  : never

export const Constants = {
  "public": {
          Enums: {
            
          }
        }
} as const
