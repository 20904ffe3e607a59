/**
 * A policy page: its title and the stored text. The HTML has been sanitized
 * on the server (app/utils/sanitize-html.server.ts) before it gets here.
 */
export function PolicyArticle({ title, html }: { title: string; html: string }) {
  return (
    <article className="page prose policy" aria-labelledby="policy-title">
      <h1 id="policy-title">{title}</h1>
      <div
        className="policy-content"
        data-testid="policy-content"
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </article>
  );
}
