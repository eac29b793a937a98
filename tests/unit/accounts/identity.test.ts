import { describe, expect, it } from "vitest";
import { checkForm, displayNameSchema, editPostSchema, EDIT_POST_FIELDS, formProblem, REGISTER_FIELDS, registerSchema } from "~/lib/forms";
import { nameSkeletons } from "~/lib/name-skeleton.server";
import { ACCOUNT_MESSAGES, isEmail, MESSAGES, POST_MESSAGES, showHiddenControls } from "~/lib/rules";
import { hasUnclosedBidi, showNonAscii, withoutControlCharacters } from "~/lib/text/text-controls";

/** The audit's examples (issue 27, finding 6). */
const ZWSP = "\u200b";
const CYRILLIC_A = "\u0410";
const RLO = "\u202e";
const PDF = "\u202c";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};
const nameProblem = (displayName: string) => {
  const checked = checkForm(displayNameSchema, form({ displayName }));
  return checked.ok ? null : formProblem(checked.errors, ["displayName"], ACCOUNT_MESSAGES.fillAll)!.message;
};
const person = { displayName: "Ľudovít Štúr", email: "ludovit@example.sk", password: "dobre-heslo", confirmPassword: "dobre-heslo" };
const registration = (fields: Partial<typeof person>) => {
  const checked = checkForm(registerSchema, form({ ...person, ...fields }));
  return checked.ok ? checked.value : formProblem(checked.errors, REGISTER_FIELDS, ACCOUNT_MESSAGES.fillAll);
};

describe("display names", () => {
  it("refuse a name made only of invisible characters", () => {
    for (const name of [ZWSP, `${ZWSP}${ZWSP}`, "\u3164", "\u2800", "\u034f", "\ufe0f", "\u200d\u200c"]) {
      expect(nameProblem(name), showHiddenControls(name)).toBe(ACCOUNT_MESSAGES.displayNameInvisible);
    }
    // Spaces alone are an empty field.
    expect(nameProblem("\u00a0 \u3000")).toBe(ACCOUNT_MESSAGES.fillAll);
  });

  it("refuse format, control and other unseen characters in a name", () => {
    const names = [`Admin${ZWSP}`, "Ad\u200dmin", "Admin\u00ad", `Admin${RLO}nimda`, "Admin\u2066", "Ad\u0000min", "Ad\u001bmin", "Ad\u0085min", "Ad\u2028min", "Admin\ue000", "Admin\u3164", "Admin\u2800", "Admin\ufe0f", "Ad\ufeffmin"];
    for (const name of names) expect(nameProblem(name), showHiddenControls(name)).toBe(ACCOUNT_MESSAGES.displayNameControls);
  });

  it("refuse a mark NFC cannot join to its letter: an extra accent or an overlay makes a look-alike with its own skeleton (a review found them accepted)", () => {
    for (const name of ["Peter Kováč\u0300", "Peter Kováč\u0334", "Pe\u0336ter"]) expect(nameProblem(name), showHiddenControls(name)).toBe(ACCOUNT_MESSAGES.displayNameMarks);
    // Typed with combining marks that do join, a name is one letter each.
    for (const name of ["Peter Kova\u0301c\u030c", "Nguye\u0302\u0303n", "देवनागरी"]) expect(nameProblem(name), name).toBeNull();
  });

  it("accept ordinary names, Slovak diacritics, other scripts and symbols, stored NFC", () => {
    for (const name of ["Ľudovít Štúr", "Žofia", "Mária Terézia", "Ďurko Ťapák-Äčko", "O'Brien", "Jan 3.", "Александр Пушкин", "Σωκράτης", "李白", "J. R. R. Tolkien ★"]) {
      expect(nameProblem(name), name).toBeNull();
    }
    // "Ž" typed as Z + combining caron is stored as the one letter.
    const checked = checkForm(displayNameSchema, form({ displayName: "  Z\u030cofia " }));
    expect(checked.ok && checked.value.displayName).toBe("Žofia");
  });
});

/** Two names look alike when either of their skeletons is the same (as the users model asks). */
function lookAlike(one: string, other: string): boolean {
  const [a, b] = [nameSkeletons(one), nameSkeletons(other)];
  return a.folded === b.folded || a.cased === b.cased;
}

describe("the name skeletons (UTS #39)", () => {
  it("make look-alikes meet: the audit's Cyrillic Аdmin, case, blanks, invisible characters, digits", () => {
    for (const name of [`${CYRILLIC_A}dmin`, "admin", "ADMIN", "Ad min", `Admin${ZWSP}`, "\u2800Admin", "Adrnin", "\u0391dmin", "\ua4eedmin", "Ａｄｍｉｎ"]) {
      expect(lookAlike(name, "Admin"), showHiddenControls(name)).toBe(true);
    }
    expect(lookAlike("Peter1", "Peterl")).toBe(true);
    expect(lookAlike("J0zef", "Jozef")).toBe(true);
  });

  it("make Greek capitals meet the Latin letters they look like (a review found them apart when lower-cased first)", () => {
    for (const [latin, greek] of [["Peter Kováč", "\u03a1eter \u039aov\u03acč"], ["Karol", "\u039aarol"], ["Maria", "\u039caria"], ["Beta", "\u0392eta"], ["Ivan", "lvan"]]) {
      expect(lookAlike(latin, greek), greek).toBe(true);
    }
  });

  it("keep Slovak names apart from each other and from their forms without diacritics", () => {
    const names = ["Ľudovít Štúr", "Ludovit Stur", "Ĺudovít Štúr", "Žofia", "Zofia", "Sofia", "Žofie", "Mária", "Maria", "Ján", "Jan", "Jána"];
    for (const [i, one] of names.entries()) for (const other of names.slice(i + 1)) expect(lookAlike(one, other), `${one} / ${other}`).toBe(false);
    // One name however it was typed: precomposed or with combining marks.
    expect(nameSkeletons("Ľudovít Štúr")).toEqual(nameSkeletons("L\u030cudovi\u0301t S\u030ctu\u0301r"));
  });

  it("cost a few microseconds for the longest name", () => {
    const name = "Ľudovít Štúr a Mária Terézia, Ján Amos Komenský".padEnd(50, "é");
    const start = performance.now();
    for (let i = 0; i < 1_000; i++) nameSkeletons(name);
    expect((performance.now() - start) / 1_000).toBeLessThan(0.5);
  });
});

describe("e-mail addresses", () => {
  it("are plain ASCII addresses: the audit's look-alike, invisible and display-name forms are refused", () => {
    const refused = [
      `${CYRILLIC_A}dmin@example.com`,
      `admin${ZWSP}@example.com`,
      "<admin@example.com>",
      "Admin <admin@example.com>",
      '"admin"@example.com',
      "admin@example.com, eve@example.com",
      "admin(comment)@example.com",
      "admin@[127.0.0.1]",
      "admin@localhost",
      "admin@example.com.",
      "admin@-example.com",
      "admin..x@example.com",
      ".admin@example.com",
      "ján@example.sk",
      "admin@príklad.sk",
      "admin@example.123",
      `a${RLO}@b.sk`,
      "a\u0001@b.sk",
      "a b@example.com",
      `${"a".repeat(65)}@example.com`,
      `a@${"b".repeat(250)}.sk`,
    ];
    for (const email of refused) expect(isEmail(email), showNonAscii(email)).toBe(false);
  });

  it("accept what people use, an IDN domain in its xn-- form included", () => {
    for (const email of ["a@b.sk", "jan.novak+dejiny@example.com", "o'brien@example.ie", "x_y-z@mail.example.co.uk", "info@xn--prklad-0ya.sk", "A@EXAMPLE.COM"]) {
      expect(isEmail(email), email).toBe(true);
    }
  });

  it("are refused at registration with the form's message for a bad e-mail; the name and e-mail are NFC-normalised", () => {
    for (const email of [`${CYRILLIC_A}dmin@example.com`, `admin${ZWSP}@example.com`, "<admin@example.com>"]) {
      expect(registration({ email }), showNonAscii(email)).toEqual({ message: MESSAGES.badCredentials, invalid: ["email"] });
    }
    expect(registration({ displayName: "L\u030cudovi\u0301t" })).toMatchObject({ displayName: "Ľudovít", email: "ludovit@example.sk" });
  });

  it("take little time for the longest hostile input", () => {
    const start = performance.now();
    for (const email of ["a".repeat(254), `${"a-".repeat(120)}@${"b-".repeat(60)}`, `x@${"a.".repeat(126)}`]) isEmail(email);
    expect(performance.now() - start).toBeLessThan(50);
  });
});

describe("article bodies", () => {
  const edit = (content: string) => {
    const checked = checkForm(editPostSchema, form({ title: "Nadpis", content }));
    return checked.ok ? null : formProblem(checked.errors, EDIT_POST_FIELDS, POST_MESSAGES.emptyEdit);
  };

  it("refuse a bidi override or isolate a line leaves open (the audit's example)", () => {
    for (const content of [`Text ${RLO}obrátený`, `Riadok ${RLO}jeden\nriadok dva${PDF}`, "a \u2067b", "a \u2066b \u202ac\u2069 \u202b", `a ${RLO}b${PDF}${PDF} \u202d`]) {
      expect(edit(content), showHiddenControls(content)).toEqual({ message: POST_MESSAGES.contentBidi, invalid: ["content"] });
    }
  });

  it("accept closed ones, and stray closers that do nothing", () => {
    for (const content of [`Citát ${RLO}obrátený${PDF} a ďalej`, "\u2067שלום\u2069 znamená pokoj", "a \u2066b \u202ac\u2069 koniec", `${PDF} a \u2069`, "Obyčajný text\nna dvoch riadkoch"]) {
      expect(edit(content), showHiddenControls(content)).toBeNull();
      expect(hasUnclosedBidi(content)).toBe(false);
    }
  });

  it("lose NUL and the other control characters when stored, but tab and new line", () => {
    expect(withoutControlCharacters("a\u0000b\u0001c\u001bd\u007fe\u009bf\tg\nh")).toBe("abcdef\tg\nh");
  });
});
