// The bench peer's build: React through @vitejs/plugin-react; the base path and output folder
// come from the command line (`cargo xtask bench` passes `--base` and `--outDir`).
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
});
