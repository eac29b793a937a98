/** The marks an article's text may use (Markdown, content.server.ts), with a tiny example: the create and edit forms' hint. */
export function ContentHint({ id }: { id: string }) {
  return (
    <div className="field-hint">
      <p id={id}>
        Nový riadok sa zachová, prázdny riadok ukončí odsek. <code>**tučné**</code>, <code>*kurzíva*</code>, <code>[odkaz](https://…)</code>, nadpis{" "}
        <code>## Príčiny</code>, zoznam <code>- 862</code> alebo <code>1. Cyril</code>, citát <code>&gt; text</code> s{"\u00a0"}riadkom <code>&gt; — zdroj</code>, odkaz na
        zdroj <code>[1]</code>.
      </p>
      <details className="markup-example">
        <summary>Príklad</summary>
        <pre>{EXAMPLE}</pre>
      </details>
    </div>
  );
}

const EXAMPLE = `## Príčiny

Misia prišla na **pozvanie** kniežaťa Rastislava [1].

- 862: posolstvo do Konštantínopolu
- 863: príchod Konštantína a Metoda

> Tento národ je pokrstený, no nemá učiteľa.
> — Život Konštantína`;
