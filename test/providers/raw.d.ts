// Vite's `?raw` imports: the recorded SSE fixtures are read as text.
declare module "*?raw" {
  const text: string;
  export default text;
}
