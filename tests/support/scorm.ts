import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { validateXML } from 'xmllint-wasm';

/**
 * SCORM 1.2 packages in tests: unzip one, and validate its manifest against the SCORM 1.2 schemas
 * in tests/fixtures/scorm12 (ADL CP 1.1.2 with the ADL extensions, IMS MD 1.2.1; see the README
 * there for where they come from) with libxml2's xmllint, compiled to WebAssembly.
 */
const SCHEMAS = path.resolve('tests/fixtures/scorm12');

/** One schema importing the three namespaces a SCORM 1.2 manifest uses: xmllint takes one. */
const ENTRY = `<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <xsd:import namespace="http://www.imsproject.org/xsd/imscp_rootv1p1p2" schemaLocation="imscp_rootv1p1p2.xsd"/>
  <xsd:import namespace="http://www.imsglobal.org/xsd/imsmd_rootv1p2p1" schemaLocation="imsmd_rootv1p2p1.xsd"/>
  <xsd:import namespace="http://www.adlnet.org/xsd/adlcp_rootv1p2" schemaLocation="adlcp_rootv1p2.xsd"/>
</xsd:schema>
`;

/**
 * The schema files as xmllint reads them. One change, made here and not in the files: libxml2
 * enforces XML Schema's Unique Particle Attribution rule, and IMS MD 1.2.1's extension point
 * (`grp.any`, any element of any namespace after the optional elements) makes its content models
 * ambiguous, so libxml2 refuses to compile it. Narrowing that one wildcard to other namespaces
 * (`##other`) keeps every IMS MD element validated strictly, as declared.
 */
function schemaFiles() {
  return fs
    .readdirSync(SCHEMAS)
    .filter((file) => file.endsWith('.xsd'))
    .map((file) => {
      let contents = fs.readFileSync(path.join(SCHEMAS, file), 'utf8');
      if (file === 'imsmd_rootv1p2p1.xsd') {
        const wildcard = '<xsd:any namespace="##any" processContents="strict"';
        if (!contents.includes(wildcard)) throw new Error(`${file} changed: no ##any wildcard`);
        contents = contents.replace(
          wildcard,
          '<xsd:any namespace="##other" processContents="strict"',
        );
      }
      return { fileName: file, contents };
    });
}

/** xmllint's errors for the manifest; none when it is valid. */
export async function manifestErrors(manifest: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'imsmanifest.xml', contents: manifest }],
    schema: [{ fileName: 'scorm12.xsd', contents: ENTRY }],
    preload: schemaFiles(),
  });
  return result.valid ? [] : result.errors.map((error) => error.rawMessage);
}

/** A zip's files, path to bytes. */
export function unzip(zip: Uint8Array): Map<string, Uint8Array> {
  return new Map(Object.entries(unzipSync(zip)));
}

/** Unzips a package into a folder (for a static server); returns the folder. */
export function unzipTo(zip: Uint8Array, folder: string): string {
  for (const [file, bytes] of unzip(zip)) {
    const target = path.join(folder, file);
    if (!target.startsWith(folder + path.sep)) throw new Error(`zip entry outside: ${file}`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, bytes);
  }
  return folder;
}
