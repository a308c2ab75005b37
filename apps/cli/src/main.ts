import { run } from './cli';

run(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`platform: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 70;
  },
);
