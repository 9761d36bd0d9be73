// The membership-card template the service benchmarks (`npm run bench` server
// section, `npm run load`) create passes from.

/** The pass type identifier of the benchmarks' throwaway certificate. */
export const PASS_TYPE = 'pass.com.example.bench';

/** The template, as POST /v1/templates takes it. */
export const template = {
  name: 'Bench card',
  formatVersion: 1,
  passType: PASS_TYPE,
  description: {
    logoText: '${club}',
    backgroundColor: 'rgb(20, 40, 60)',
    generic: { primaryFields: [{ key: 'name', label: 'Member', value: '${name}' }], secondaryFields: [{ key: 'level', label: 'Level', value: '${level}' }] },
  },
  placeholder: ['club', 'name', 'level'],
};
