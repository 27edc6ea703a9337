/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    /** The site to render, passed by the builder through `app.render(request, { locals })`. */
    site?: import('@dropsite/shared').TSiteRenderModel;
  }
}
