// Vitest 5 targets Node 22 and calls Map.groupBy / Object.groupBy (ES2024) when it
// reports failures; Node 20 lacks them. Defined here for the runner only, never in src/.
type Grouper = <T, K>(items: Iterable<T>, key: (item: T, index: number) => K) => Map<K, T[]>;

if (typeof (Map as unknown as { groupBy?: Grouper }).groupBy !== 'function') {
  const groupBy: Grouper = (items, key) => {
    const groups = new Map();
    let index = 0;
    for (const item of items) {
      const k = key(item, index++);
      const group = groups.get(k);
      if (group === undefined) groups.set(k, [item]);
      else group.push(item);
    }
    return groups;
  };
  Object.defineProperty(Map, 'groupBy', { value: groupBy, configurable: true, writable: true });
  Object.defineProperty(Object, 'groupBy', {
    value: <T>(items: Iterable<T>, key: (item: T, index: number) => PropertyKey) => Object.assign(Object.create(null), Object.fromEntries(groupBy(items, key))),
    configurable: true,
    writable: true,
  });
}
