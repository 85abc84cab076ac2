/** autocannon 9 ships no types: the part of its programmatic API that bench/load.ts uses. */
declare module "autocannon" {
  interface RawRequest {
    method?: string;
    path?: string;
    body?: string | Buffer;
    headers?: Record<string, string>;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    requests?: Array<RawRequest & { setupRequest?: (req: RawRequest) => RawRequest }>;
  }
  interface Histogram {
    average: number;
    total: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}

