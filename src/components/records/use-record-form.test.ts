/**
 * The record form kit's decisions (use-record-form.ts): a refusal's field errors on their
 * inputs (custom cf_ fields under `custom`), a stale record's latest version, the guard on
 * closing with unsaved changes, and the one save over the module's create_/update_ RPCs.
 */
import { createFormControl } from "react-hook-form";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import { RpcError } from "@/lib/rpc.ts";
import { saveRecord } from "./record-api.ts";
import { closeAction, settleRefusal, staleLatest } from "./record-form.ts";

vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));

const row = z.object({ id: z.string(), updated_at: z.string(), name: z.string() });
type Form = { name: string; email: string; custom: Record<string, string> };
const formControl = () => createFormControl<Form>({ defaultValues: { name: "Alfa", email: "", custom: { cf_sektor: "" } } });

describe("the record form kit", () => {
  beforeEach(() => vi.mocked(rpc).mockReset());

  it("puts the database's field errors on their inputs, a custom field's under custom", () => {
    const form = formControl();
    const error = new RpcError("Invalid fields", "invalid_fields", { fields: { email: "invalid_email", cf_sektor: "invalid_option" } });
    expect(settleRefusal(error, form.setError, ["name", "email", "custom.cf_sektor"])).toBe("placed");
    expect(form.getFieldState("email").error?.message).toBe("records.form.fieldErrors.invalid_email");
    expect(form.getFieldState("custom.cf_sektor").error?.message).toBe("records.form.fieldErrors.invalid_option");
  });

  it("says a field error the form has no input for, in the module's words when it has its own", () => {
    const form = formControl();
    const error = new RpcError("Invalid fields", "invalid_fields", { fields: { name: "too_long", owner_id: "invalid_owner" } });
    expect(settleRefusal(error, form.setError, ["name"], (code) => `modules.x.${code}`)).toBe("notify");
    expect(form.getFieldState("name").error?.message).toBe("modules.x.too_long");
    expect(settleRefusal(new RpcError("x", "not_record_owner"), form.setError, ["name"])).toBe("notify");
  });

  it("answers a stale record with its latest version, and nothing else with one", () => {
    const latest = { id: "1", updated_at: "2026-11-28T10:00:00Z", name: "Alfa (changed)" };
    const stale = new RpcError("Stale", "stale_record", { record: latest });
    const form = formControl();
    expect(settleRefusal(stale, form.setError, ["name"])).toBe("stale");
    expect(form.getFieldState("name").error).toBeUndefined();
    expect(staleLatest(stale, row)).toEqual(latest);
    expect(staleLatest(new RpcError("Stale", "stale_record", { record: { id: "1" } }), row)).toBeNull();
    expect(staleLatest(new RpcError("x", "not_found", { record: latest }), row)).toBeNull();
  });

  it("asks before closing a form with unsaved changes, not an untouched one nor while it saves", () => {
    const form = formControl();
    form.register("name");
    expect(closeAction(form.getFieldState("name").isDirty, false)).toBe("close");
    form.setValue("name", "Beta", { shouldDirty: true });
    expect(closeAction(form.getFieldState("name").isDirty, false)).toBe("ask");
    expect(closeAction(form.getFieldState("name").isDirty, true)).toBe("close");
  });

  it("creates through create_<entity> and updates through update_<entity> with the version read", async () => {
    const saved = { id: "1", updated_at: "2026-11-28T10:00:00Z", name: "Alfa" };
    vi.mocked(rpc).mockResolvedValue({ record: saved });
    await expect(saveRecord("customer", row, { name: "Alfa" })).resolves.toEqual(saved);
    expect(rpc).toHaveBeenLastCalledWith("create_customer", { p_values: { name: "Alfa" } }, expect.anything());
    await saveRecord("customer", row, { name: "Beta" }, { id: "1", updated_at: saved.updated_at });
    expect(rpc).toHaveBeenLastCalledWith(
      "update_customer",
      { p_id: "1", p_values: { name: "Beta" }, p_updated_at: saved.updated_at },
      expect.anything(),
    );
  });
});
