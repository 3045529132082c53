import { afterAll, beforeAll } from "vitest";
import { startRedis, type RedisDeTeste } from "./redis.ts";

/** A real redis-server for the tests of one describe: started before them, stopped after; the getter gives it. */
export function redisDoDescribe(): () => RedisDeTeste {
  let redis: RedisDeTeste | undefined;
  beforeAll(async () => {
    redis = await startRedis();
  }, 60_000);
  afterAll(async () => {
    await redis?.cleanup();
  });
  return () => {
    if (!redis) throw new Error("o redis-server do describe não subiu");
    return redis;
  };
}
