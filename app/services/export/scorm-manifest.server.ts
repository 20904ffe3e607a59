import { escapeMarkup as esc } from './scorm-markup.server';

/**
 * `imsmanifest.xml` of a SCORM 1.2 package (ADR 34): IMS Content Packaging 1.1.2 with the ADL
 * SCORM 1.2 extensions (`adlcp`) and IMS Meta-data 1.2 for the course's title, language and
 * description. One organization with one item, the course, launched as one SCO (`index.html`)
 * whose resource lists every file of the package. Identifiers are XML IDs: letters first.
 */
export interface ManifestInput {
  /** Stable for a course, so an LMS that keys on it sees the same package again. */
  identifier: string;
  title: string;
  /** BCP 47 code of the course language. */
  language: string;
  /** In English, like the rest of the package's own words. */
  description: string;
  masteryScore: number;
  /** Every file of the package but the manifest, the launch page first. */
  files: string[];
}

export const SCORM_LAUNCH_PAGE = 'index.html';

/** Letters, digits, '.', '-' and '_' only, starting with a letter: an xsd:ID. */
export function xmlId(prefix: string, value: string): string {
  return `${prefix}-${value.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

export function scormManifest(input: ManifestInput): string {
  const lang = esc(input.language);
  const langString = (text: string, language = lang) =>
    `<imsmd:langstring xml:lang="${language}">${esc(text)}</imsmd:langstring>`;
  const files = input.files.map((file) => `      <file href="${esc(file)}"/>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${esc(input.identifier)}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:imsmd="http://www.imsglobal.org/xsd/imsmd_rootv1p2p1"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
    <imsmd:lom>
      <imsmd:general>
        <imsmd:title>${langString(input.title)}</imsmd:title>
        <imsmd:language>${lang}</imsmd:language>
        <imsmd:description>${langString(input.description, 'en')}</imsmd:description>
      </imsmd:general>
    </imsmd:lom>
  </metadata>
  <organizations default="ORG-course">
    <organization identifier="ORG-course">
      <title>${esc(input.title)}</title>
      <item identifier="ITEM-course" identifierref="RES-course" isvisible="true">
        <title>${esc(input.title)}</title>
        <adlcp:masteryscore>${input.masteryScore}</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="RES-course" type="webcontent" adlcp:scormtype="sco" href="${SCORM_LAUNCH_PAGE}">
${files}
    </resource>
  </resources>
</manifest>
`;
}
