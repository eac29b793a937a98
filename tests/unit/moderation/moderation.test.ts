import { describe, expect, it } from "vitest";
import { CHANGE_PASSWORD_FIELDS, changePasswordSchema, checkForm, formProblem, REPORT_FIELDS, reportSchema } from "~/lib/forms";
import { articleCount, MODERATION_MESSAGES, pageWindow, parsePage } from "~/lib/moderation/moderation";
import { ACCOUNT_MESSAGES, MESSAGES } from "~/lib/rules";
import { containsPattern, foldForSearch } from "~/lib/search";
import { describeUserAgent } from "~/lib/user-agent";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

describe("the report form", () => {
  const problem = (fields: Record<string, string>) => {
    const checked = checkForm(reportSchema, form(fields));
    return checked.ok ? null : formProblem(checked.errors, REPORT_FIELDS, MODERATION_MESSAGES.reportReason);
  };

  it("needs a reason from the list; the note is optional, keeps new lines, and has a length and no hidden controls", () => {
    expect(problem({})).toEqual({ message: MODERATION_MESSAGES.reportReason, invalid: ["reason"] });
    expect(problem({ reason: "nieco" })).toEqual({ message: MODERATION_MESSAGES.reportReason, invalid: ["reason"] });
    expect(problem({ reason: "spam" })).toBeNull();
    expect(checkForm(reportSchema, form({ reason: "other", note: " riadok\r\nďalší " }))).toMatchObject({ ok: true, value: { note: "riadok\nďalší" } });
    // 500 typed characters, each new line counting as one (a browser sends CRLF).
    expect(problem({ reason: "other", note: "ab\r\n".repeat(166) + "ab" })).toBeNull();
    expect(problem({ reason: "other", note: "x".repeat(501) })).toEqual({ message: MODERATION_MESSAGES.reportNote, invalid: ["note"] });
    expect(problem({ reason: "other", note: "skryté\u202e" })).toEqual({ message: MODERATION_MESSAGES.reportNoteControls, invalid: ["note"] });
  });
});

describe("the change-password form", () => {
  const problem = (fields: Record<string, string>) => {
    const checked = checkForm(changePasswordSchema, form(fields));
    return checked.ok ? null : formProblem(checked.errors, CHANGE_PASSWORD_FIELDS, ACCOUNT_MESSAGES.fillAll);
  };

  it("needs the current password and a new one by the registration's rules", () => {
    expect(problem({ password: "nové-heslo-1", confirmPassword: "nové-heslo-1" })).toEqual({ message: ACCOUNT_MESSAGES.fillAll, invalid: ["currentPassword"] });
    expect(problem({ currentPassword: "x", password: "nové-heslo-1", confirmPassword: "iné-heslo-1" })).toEqual({
      message: MESSAGES.passwordsDiffer,
      invalid: ["password", "confirmPassword"],
    });
    expect(problem({ currentPassword: "x", password: "ž".repeat(37), confirmPassword: "ž".repeat(37) })?.message).toBe(ACCOUNT_MESSAGES.passwordTooLong);
    expect(problem({ currentPassword: "x", password: "nové-heslo-1", confirmPassword: "nové-heslo-1" })).toBeNull();
  });
});

describe("search of accounts", () => {
  it("ignores case and diacritics, and takes LIKE's wildcards literally", () => {
    expect(foldForSearch("Ľudovít ŠTÚR, Čaňa")).toBe("ludovit stur, cana");
    expect(containsPattern("Štúr")).toBe("%stur%");
    expect(containsPattern("50%_a\\b")).toBe("%50\\%\\_a\\\\b%");
  });
});

describe("paging", () => {
  it("reads a page number from the address and keeps it within the list", () => {
    for (const raw of [null, "", "0", "-3", "abc", "1.5e400", "99999999999999999999"]) expect(parsePage(raw), String(raw)).toBe(1);
    expect(parsePage("7")).toBe(7);
    expect(pageWindow(7, 0, 25)).toEqual({ page: 1, pages: 1, offset: 0, limit: 25 });
    expect(pageWindow(7, 51, 25)).toEqual({ page: 3, pages: 3, offset: 50, limit: 25 });
    expect(pageWindow(2, 51, 25)).toEqual({ page: 2, pages: 3, offset: 25, limit: 25 });
  });

  it("counts articles in Slovak", () => {
    expect([0, 1, 2, 4, 5, 22].map(articleCount)).toEqual(["0 článkov", "1 článok", "2 články", "4 články", "5 článkov", "22 článkov"]);
  });
});

describe("devices", () => {
  it("names the usual browsers and systems from a User-Agent", () => {
    const cases: [string, string][] = [
      ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "Edge · Windows"],
      ["Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1", "Safari · iOS"],
      ["Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0", "Firefox · Linux"],
      ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Chrome · macOS"],
      ["w3m/0.5.3+git20230121", "textový prehliadač"],
      ["", "neznámy prehliadač"],
    ];
    for (const [userAgent, name] of cases) expect(describeUserAgent(userAgent)).toBe(name);
  });
});
