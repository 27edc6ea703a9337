/** sharp (libvips) is loaded on the first image a process derives: a process that only serves never pays for it. */
import type sharpModule from 'sharp';

export type TSharp = typeof sharpModule;

let loading: Promise<TSharp> | null = null;

export function loadSharp(): Promise<TSharp> {
  loading ??= import('sharp').then(
    (module) => module.default,
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
