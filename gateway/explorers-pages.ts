// The explorers' own pages and scripts, served by gateway/explorers.ts. The scripts are files the pages load, never
// inline, so the pages' Content-Security-Policy allows scripts from 'self' only. They are kept here as text: the linter
// reads every .js file of the tree as part of the TypeScript project, which browser scripts are not.

const LOGIN_PATH = '/v1/authmanager/authenticate/internal/useridPwd';

const page = (title: string, head: string, body: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <link rel="icon" type="image/png" href="/swagger-ui/assets/favicon-32x32.png" />
${head}
  </head>
  <body>
${body}
  </body>
</html>
`;

/** Swagger UI over /v3/api-docs. */
export const SWAGGER_PAGE = page(
  'REST API · Identity platform',
  '    <link rel="stylesheet" href="/swagger-ui/assets/swagger-ui.css" />',
  `    <div id="swagger-ui"></div>
    <script src="/swagger-ui/assets/swagger-ui-bundle.js"></script>
    <script src="/swagger-ui/assets/init.js"></script>`,
);

/**
 * Swagger UI's start: the platform's document, no online validator, "Try it out" with the browser's cookie (same
 * origin). A password login run here also fills the Authorize dialog with its token (kept across reloads), so calls
 * still carry it where the browser refuses the Secure cookie (plain HTTP on another host than localhost).
 */
export const SWAGGER_SCRIPT = `'use strict';
window.addEventListener('load', function () {
  var ui = SwaggerUIBundle({
    url: '/v3/api-docs',
    dom_id: '#swagger-ui',
    layout: 'BaseLayout',
    deepLinking: true,
    validatorUrl: null,
    persistAuthorization: true,
    displayRequestDuration: true,
    filter: true,
    responseInterceptor: function (response) {
      var token = response && response.ok && response.body && response.body.response && response.body.response.token;
      if (typeof token === 'string' && response.url.indexOf('${LOGIN_PATH}') !== -1) ui.preauthorizeApiKey('bearerToken', token);
      return response;
    },
  });
  window.ui = ui;
});
`;

/** GraphiQL with a sign-in bar above it. */
export const GRAPHIQL_PAGE = page(
  'GraphQL · Identity platform',
  `    <link rel="stylesheet" href="/graphiql/assets/graphiql.min.css" />
    <link rel="stylesheet" href="/graphiql/assets/explorer.css" />`,
  `    <form id="sign-in" class="sign-in">
      <strong>Identity platform</strong>
      <label>User <input name="userName" autocomplete="username" required /></label>
      <label>Password <input name="password" type="password" autocomplete="current-password" required /></label>
      <label>Application <input name="appId" value="admin" required /></label>
      <button type="submit">Sign in</button>
      <button type="button" id="sign-out">Sign out</button>
      <output id="status" aria-live="polite"></output>
    </form>
    <div id="graphiql">Loading GraphiQL…</div>
    <script src="/graphiql/assets/react.production.min.js"></script>
    <script src="/graphiql/assets/react-dom.production.min.js"></script>
    <script src="/graphiql/assets/graphiql.min.js"></script>
    <script src="/graphiql/assets/init.js"></script>`,
);

/**
 * GraphiQL's start and the sign-in bar. Signing in calls the REST password login: the browser keeps the Authorization
 * cookie, which /graphql reads; the token of the answer is kept in memory too and sent as a bearer header, for a
 * browser that refuses the Secure cookie over plain HTTP. GraphiQL is mounted again after a sign-in or out, so it
 * fetches the schema (introspection needs a valid token) with the new credentials.
 */
export const GRAPHIQL_SCRIPT = `'use strict';
(function () {
  var form = document.getElementById('sign-in');
  var status = document.getElementById('status');
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  var token = null;
  var generation = 0;
  var defaultQuery = '# Sign in above, then run this query (Ctrl-Enter); the Docs button browses the schema.\\n' +
    'query Viewer {\\n  viewer {\\n    id\\n    type\\n    name\\n    roles\\n    appId\\n  }\\n}\\n';

  function headers() {
    return token ? { Authorization: 'Bearer ' + token } : {};
  }

  function mount() {
    generation += 1;
    var fetcher = GraphiQL.createFetcher({ url: '/graphql', headers: headers() });
    root.render(React.createElement(GraphiQL, { key: generation, fetcher: fetcher, defaultQuery: defaultQuery }));
  }

  async function showViewer() {
    try {
      var answer = await fetch('/graphql', {
        method: 'POST',
        credentials: 'same-origin',
        headers: Object.assign({ 'Content-Type': 'application/json' }, headers()),
        body: JSON.stringify({ query: '{ viewer { id } }' }),
      }).then(function (response) { return response.json(); });
      var viewer = answer && answer.data && answer.data.viewer;
      status.textContent = viewer ? 'Signed in as ' + viewer.id : 'Not signed in: sign in to run queries and browse the docs';
    } catch (error) {
      status.textContent = 'The platform did not answer: ' + error;
    }
  }

  form.addEventListener('submit', async function (event) {
    event.preventDefault();
    var fields = new FormData(form);
    status.textContent = 'Signing in…';
    var answer = await fetch('${LOGIN_PATH}', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        id: 'platform.graphiql',
        version: '1.0',
        requesttime: new Date().toISOString(),
        request: { userName: fields.get('userName'), password: fields.get('password'), appId: fields.get('appId') },
      }),
    }).then(function (response) { return response.json(); }, function () { return null; });
    if (!answer || !answer.response) {
      var error = answer && answer.errors && answer.errors[0];
      status.textContent = 'Sign-in refused: ' + (error ? error.errorCode + ' ' + error.message : 'no answer');
      return;
    }
    token = answer.response.token;
    form.elements.namedItem('password').value = '';
    mount();
    await showViewer();
  });

  document.getElementById('sign-out').addEventListener('click', async function () {
    await fetch('/v1/authmanager/authorize/invalidateToken', { method: 'POST', credentials: 'same-origin', headers: headers() }).catch(function () {});
    token = null;
    mount();
    await showViewer();
  });

  mount();
  showViewer();
})();
`;

/** The sign-in bar, and GraphiQL filling the rest of the window. */
export const EXPLORER_STYLE = `html,
body {
  height: 100%;
  margin: 0;
}
body {
  display: flex;
  flex-direction: column;
  font-family: system-ui, sans-serif;
}
.sign-in {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 1rem;
  padding: 0.5rem 1rem;
  border-bottom: 1px solid #d0d4da;
  font-size: 0.9rem;
}
.sign-in input {
  width: 10rem;
}
#graphiql {
  flex: 1;
  min-height: 0;
}
`;
