/** @type {import('next').NextConfig} */
export default {
  // The app is built in a temporary copy of this folder: its own root, whatever lock files lie above it.
  turbopack: { root: import.meta.dirname },
  outputFileTracingRoot: import.meta.dirname,
};
