// A stand-in for the built site template in tests about the render model: its one "page"
// is the model the builder passed, as JSON, so tests read exactly what the template receives.
export const app = {
  match() {
    return { route: '/' };
  },
  async render(_request, { locals }) {
    const json = JSON.stringify(locals.site).replace(/</g, '\\u003c');
    return new Response(`<!doctype html><script type="application/json" id="model">${json}</script>`, {
      status: 200,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    });
  },
};
