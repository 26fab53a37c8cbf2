import { describe, expect, it } from "vitest";
import {
  fromZonedInputValue,
  startOfNextZonedWeek,
  startOfZonedDay,
  toZonedInputValue,
  usableTimeZone,
  wallTime,
  zonedInstant,
} from "./zoned-time.ts";

describe("zoned time", () => {
  it("reads the wall clock of a zone (Istanbul is UTC+3 all year)", () => {
    expect(wallTime(new Date("2026-11-23T21:30:00Z"), "Europe/Istanbul")).toMatchObject({
      year: 2026,
      month: 11,
      day: 24,
      hour: 0,
      minute: 30,
      weekday: 2,
    });
  });

  it("finds the instant of a wall-clock time, rolling days over", () => {
    expect(zonedInstant("Europe/Istanbul", 2026, 11, 24).toISOString()).toBe("2026-11-23T21:00:00.000Z");
    expect(zonedInstant("Europe/Istanbul", 2026, 12, 32).toISOString()).toBe("2026-12-31T21:00:00.000Z");
    expect(zonedInstant("UTC", 2026, 1, 1, 9, 5).toISOString()).toBe("2026-01-01T09:05:00.000Z");
  });

  it("follows summer time: New York's day is 23 or 25 hours around the changes", () => {
    expect(zonedInstant("America/New_York", 2026, 3, 8).toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(zonedInstant("America/New_York", 2026, 3, 9).toISOString()).toBe("2026-03-09T04:00:00.000Z");
    expect(zonedInstant("America/New_York", 2026, 11, 1).toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(zonedInstant("America/New_York", 2026, 11, 2).toISOString()).toBe("2026-11-02T05:00:00.000Z");
    // 02:30 does not exist on the spring-forward day: read as 03:30 summer time.
    expect(zonedInstant("America/New_York", 2026, 3, 8, 2, 30).toISOString()).toBe("2026-03-08T07:30:00.000Z");
  });

  it("starts the zone's day where the zone's midnight is, not the browser's", () => {
    // 23:30 UTC on the 23rd is already the 24th in Istanbul.
    const lateEvening = new Date("2026-11-23T23:30:00Z");
    expect(startOfZonedDay(lateEvening, "Europe/Istanbul").toISOString()).toBe("2026-11-23T21:00:00.000Z");
    expect(startOfZonedDay(lateEvening, "Europe/Istanbul", 1).toISOString()).toBe("2026-11-24T21:00:00.000Z");
    expect(startOfZonedDay(lateEvening, "UTC").toISOString()).toBe("2026-11-23T00:00:00.000Z");
  });

  it("ends the week at the next Monday's midnight in the zone", () => {
    // Sunday 22 November 2026, 22:00 in Istanbul: the week ends in two hours.
    expect(startOfNextZonedWeek(new Date("2026-11-22T19:00:00Z"), "Europe/Istanbul").toISOString()).toBe("2026-11-22T21:00:00.000Z");
    // Monday 23 November, 00:30 in Istanbul: a whole week ahead.
    expect(startOfNextZonedWeek(new Date("2026-11-22T21:30:00Z"), "Europe/Istanbul").toISOString()).toBe("2026-11-29T21:00:00.000Z");
  });

  it("shows and reads a datetime-local value on the zone's clock", () => {
    expect(toZonedInputValue("2026-11-23T21:15:00Z", "Europe/Istanbul")).toBe("2026-11-24T00:15");
    expect(toZonedInputValue(null, "Europe/Istanbul")).toBe("");
    expect(fromZonedInputValue("2026-11-24T00:15", "Europe/Istanbul")).toBe("2026-11-23T21:15:00.000Z");
    expect(fromZonedInputValue("", "Europe/Istanbul")).toBeNull();
    expect(fromZonedInputValue("yarın", "Europe/Istanbul")).toBeNull();
    expect(fromZonedInputValue("2026-13-01T10:00", "Europe/Istanbul")).toBeNull();
  });

  it("falls back when a zone is unknown to the browser", () => {
    expect(usableTimeZone("America/New_York")).toBe("America/New_York");
    expect(usableTimeZone("Mars/Olympus")).toBe("Europe/Istanbul");
    expect(usableTimeZone(undefined)).toBe("Europe/Istanbul");
  });
});
