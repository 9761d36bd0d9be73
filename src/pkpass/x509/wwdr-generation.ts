import { OID } from '../oids.js';
import { type Name, nameValue } from './name.js';

/** Apple's WWDR generation a name is: `G3`, `G4` … from its OU, `G1` for the first one (no generation in its name). */
export function wwdrGeneration(name: Name): string | undefined {
  const unit = nameValue(name, OID.organizationalUnit);
  if (unit !== undefined && /^G\d+$/.test(unit)) return unit;
  const common = nameValue(name, OID.commonName) ?? '';
  return common.includes('Worldwide Developer Relations') ? 'G1' : undefined;
}
