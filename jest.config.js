/** One jest run, three tiers: unit specs beside the code, medium specs on real databases, e2e over the real processes. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
const shared = {
  // jose, oauth4webapi, openid-client and cookie ship ESM only (@fastify/cookie imports cookie
  // dynamically); swc turns them into CommonJS for jest.
  transform: { '^.+\\.(t|j)s$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(jose|oauth4webapi|openid-client|@fastify/cookie|cookie)/)'],
  moduleNameMapper: { '^@platform/(.*)$': '<rootDir>/libs/$1/src' },
  testEnvironment: 'node',
};

module.exports = {
  // Generous for e2e specs, which start real processes; unit specs finish far below it.
  testTimeout: 60_000,
  // One worker per core, not jest's cores-1: the e2e specs mostly wait on the processes they
  // start, so on the 2-core CI machine two workers took the run from 1,140 s to 810 s. Three
  // overloaded it (load average 11-14): the bench smoke ran past its time limit, and a replica's
  // start and a rolling restart under load failed.
  maxWorkers: '100%',
  // The longest suites first on a fresh clone, the short ones filling the tail (test/sequencer.js).
  testSequencer: '<rootDir>/test/sequencer.js',
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/*/src/**/*.spec.ts'] },
    { ...shared, displayName: 'medium', testMatch: ['<rootDir>/{apps,libs}/*/test/**/*.medium-spec.ts'] },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      // e2e specs drive the built processes (npm test builds first).
      moduleNameMapper: {},
      // One platform the independent e2e files share (`sharedPlatform()`), saving a start each;
      // jest runs these only when the run selects an e2e file.
      globalSetup: '<rootDir>/test/support/shared-platform-setup.ts',
      globalTeardown: '<rootDir>/test/support/shared-platform-teardown.ts',
    },
  ],
};
