import { FunctionsFetchError, FunctionsHttpError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { RpcError } from "@/lib/rpc.ts";
import { userAdminError } from "./user-errors.ts";

describe("userAdminError", () => {
  it("puts the create refusals under the field they concern", () => {
    expect(userAdminError(new RpcError("Geçerli bir email adresi girin", "invalid_email"))).toEqual({
      field: "email",
      key: "adminUsers.errors.invalid_email",
    });
    expect(userAdminError(new RpcError("Bu email adresi zaten kullanımda", "email_in_use"))).toEqual({
      field: "email",
      key: "adminUsers.errors.email_in_use",
    });
    expect(userAdminError(new RpcError("Şifre en az 6 karakter olmalı", "password_too_short"))).toEqual({
      field: "password",
      key: "passwordRules.tooShort",
    });
    expect(userAdminError(new RpcError("Şifre en fazla 72 bayt olabilir", "password_too_long"))).toEqual({
      field: "password",
      key: "passwordRules.tooLong",
    });
    expect(userAdminError(new RpcError("Bu şifre çok yaygın; daha güçlü bir şifre seçin", "password_common"))).toEqual({
      field: "password",
      key: "passwordRules.common",
    });
    expect(userAdminError(new RpcError("Ad ve soyad en fazla 100 karakter olabilir", "name_too_long"))).toMatchObject({
      field: "firstName",
    });
    expect(userAdminError(new RpcError("Geçersiz rol", "invalid_role"))).toMatchObject({ field: "role" });
  });

  it("keeps refusals about the whole action off the fields", () => {
    for (const code of ["admin_required", "organization_required", "self_delete", "self_action", "super_admin_required", "shared_account", "user_not_found"]) {
      expect(userAdminError(new RpcError("refused", code))).toEqual({ key: `adminUsers.errors.${code}` });
    }
  });

  it("passes on the record counts of has_records, without empty ones", () => {
    const refusal = new RpcError("Kullanıcının kayıtları var", "has_records", {
      records: { deals: 2, customers: 0, tasks: 5, bogus: "x" },
    });
    expect(userAdminError(refusal)).toEqual({
      key: "adminUsers.errors.has_records",
      records: { deals: 2, tasks: 5 },
    });
  });

  it("never shows raw text: unknown codes, network failures and anything else get a catalogue message", () => {
    expect(userAdminError(new RpcError("Invalid request", "invalid_request"))).toEqual({ key: "adminUsers.errors.unknown" });
    expect(userAdminError(new RpcError("Request failed", undefined))).toEqual({ key: "adminUsers.errors.unknown" });
    expect(userAdminError(new FunctionsFetchError(new TypeError("Failed to fetch")))).toEqual({
      key: "adminUsers.errors.network",
    });
    expect(userAdminError(new TypeError("Failed to fetch"))).toEqual({ key: "adminUsers.errors.network" });
    expect(userAdminError(new FunctionsHttpError(new Response("oops", { status: 502 })))).toEqual({
      key: "adminUsers.errors.unknown",
    });
    expect(userAdminError(new ZodError([]))).toEqual({ key: "adminUsers.errors.unknown" });
    expect(userAdminError("boom")).toEqual({ key: "adminUsers.errors.unknown" });
  });
});
