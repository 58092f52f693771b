import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Writes zip bytes exactly as told, including what a real zip writer refuses to write (names
 * with `..` or a leading slash, sizes that lie), so the hostile-input tests can build the
 * packages an attacker would send.
 */
export interface RawEntry {
  name: string;
  data: Buffer;
  /** Store the data deflated (default) or as is. */
  deflate?: boolean;
  /** The uncompressed size to declare instead of the real one. */
  declaredSize?: number;
}

export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const deflate = entry.deflate ?? true;
    const body = deflate ? deflateRawSync(entry.data) : entry.data;
    const crc = crc32(entry.data);
    const size = entry.declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const centralBytes = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralBytes, end]);
}

export const manifestFor = (hrefs: string[]) =>
  Buffer.from(
    `<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="m"><resources>${hrefs
      .map((h, i) => `<resource identifier="r${i}" type="imsqti_item_xmlv3p0" href="${h}"><file href="${h}"/></resource>`)
      .join('')}</resources></manifest>`,
  );
