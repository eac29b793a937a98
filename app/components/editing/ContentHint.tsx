/** What an article's text may contain, with a tiny example: the create and edit forms' hint (the sanitiser, content.server.ts, keeps just this). */
export function ContentHint({ id }: { id: string }) {
  return (
    <p className="field-hint" id={id}>
      Nový riadok sa zachová. Môžete použiť aj {"<b>, <i>, <em>, <strong>, <p>, <a>"}; nadpisy {"<h2>, <h3>"}; zoznamy {"<ul>, <ol>"} s{" "}
      {"<li>"}; citát {"<blockquote>"} s riadkom {"<cite>"}. Napríklad <code>{"<h2>Príčiny</h2>"}</code> alebo{" "}
      <code>{"<ul><li>862</li><li>863</li></ul>"}</code>.
    </p>
  );
}
