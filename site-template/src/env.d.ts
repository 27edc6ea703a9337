/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    /** The site to render, passed by the builder through `app.render(request, { locals })`. */
    site?: import('@dropsite/shared').TSiteRenderModel;
  }
}
declare namespace Astro {
  interface ClientDirectives {
    /** Hydrates when in view and the visitor has given any input (src/lib/interaction-directive.ts). */
    'client:interaction'?: boolean;
  }
}
