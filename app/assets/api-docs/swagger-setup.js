// /api/docs: Swagger UI as this site sets it up (ADR 0035, ADR 0048). A file of the build, loaded
// after swagger-ui-bundle.js with the request's CSP nonce: no other code runs on the page.
{
  /**
   * An operation's summary is one button that opens the operation; Swagger UI puts the
   * operation's deep link, an <a href>, inside that button: a control within a control, which
   * keyboards and screen readers cannot reach on its own (WCAG 4.1.2, axe nested-interactive).
   * The summary shows the path as text instead. Deep linking itself stays: the address follows the
   * operation opened, an address with one opens it, and the tag headings keep their links.
   */
  const summaryWithoutNestedLink = () => ({
    wrapComponents: {
      OperationSummaryPath: (Original, system) => (props) =>
        system.React.createElement(Original, {
          ...props,
          operationProps: props.operationProps.set('isDeepLinkingEnabled', false),
        }),
    },
  });

  /**
   * Fields Swagger UI renders without a name (the servers list in an empty <label>, the request
   * body's editor) get the name the page shows beside them (WCAG 4.1.2, axe select-name and
   * label), whenever Swagger UI renders them.
   */
  const UNNAMED_FIELDS = [
    ['select#servers', 'Servers'],
    ['textarea.body-param__text', 'Request body'],
  ];
  const nameUnnamedFields = (root) => {
    const name = () => {
      for (const [selector, label] of UNNAMED_FIELDS)
        for (const field of root.querySelectorAll(selector))
          if (!field.hasAttribute('aria-label')) field.setAttribute('aria-label', label);
    };
    new MutationObserver(name).observe(root, { childList: true, subtree: true });
    name();
  };

  const root = document.getElementById('swagger-ui');
  nameUnnamedFields(root);
  window.ui = window.SwaggerUIBundle({
    url: '/api/openapi.json',
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    persistAuthorization: false,
    tryItOutEnabled: false,
    plugins: [summaryWithoutNestedLink],
  });
}
