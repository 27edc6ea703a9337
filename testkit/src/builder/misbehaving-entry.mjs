// A stand-in for the built site template in the page renderer's tests: it behaves by the site's
// slug. 'fails' throws, 'exits' ends its thread, 'hangs' never answers; anything else renders a
// small page with one inline script and the slug.
export const app = {
  match() {
    return { route: '/' };
  },
  async render(_request, { locals }) {
    const { slug } = locals.site;
    if (slug === 'fails') throw new Error('The template could not render this site');
    if (slug === 'exits') process.exit(3);
    if (slug === 'hangs') return new Promise(() => {});
    return new Response(`<!doctype html><title>${slug}</title><script>document.title += '!'</script>${'<p>text</p>'.repeat(200)}`, {
      status: 200,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    });
  },
};
