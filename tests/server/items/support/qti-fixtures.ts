import { compileProcessing, type QValue } from '#machines/items/qti-engine.ts';
import { readDeclaration, readProcessing } from '#server/lib/items/qti-read.ts';
import { childNamed, childrenNamed, parseXml } from '#server/lib/items/qti-xml.ts';

/**
 * Items of our own, written in the forms of the QTI 3.0 and 2.1 specification's published
 * examples (choice, multiple response, text entry with a case-sensitive mapping, order, match,
 * select point, extended text), with the scores the specification's templates give them.
 */
const QTI3 = 'xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
const QTI21 = 'xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
const tpl3 = (name: string) => `https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/${name}.xml`;
const tpl21 = (name: string) => `http://www.imsglobal.org/question/qti_v2p1/rptemplates/${name}`;
const score3 = '<qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>';

export const choiceQti3 = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${QTI3} identifier="photosynthesis-gas" title="Photosynthesis gas" adaptive="false" time-dependent="false" xml:lang="en-IN">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
    <qti-correct-response><qti-value>ChoiceB</qti-value></qti-correct-response>
  </qti-response-declaration>
  ${score3}
  <qti-item-body>
    <p>Green plants take in one gas from the air to make their food.</p>
    <qti-choice-interaction response-identifier="RESPONSE" shuffle="false" max-choices="1">
      <qti-prompt>Which gas is it?</qti-prompt>
      <qti-simple-choice identifier="ChoiceA">Oxygen</qti-simple-choice>
      <qti-simple-choice identifier="ChoiceB">Carbon dioxide</qti-simple-choice>
      <qti-simple-choice identifier="ChoiceC">Nitrogen</qti-simple-choice>
      <qti-simple-choice identifier="ChoiceD" fixed="true">None of these</qti-simple-choice>
    </qti-choice-interaction>
  </qti-item-body>
  <qti-response-processing template="${tpl3('match_correct')}"/>
</qti-assessment-item>`;

export const choiceQti21 = `<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem ${QTI21} identifier="photosynthesis-gas-21" title="Photosynthesis gas" adaptive="false" timeDependent="false" xml:lang="en">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
    <correctResponse><value>ChoiceB</value></correctResponse>
  </responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody>
    <p>Green plants take in one gas from the air to make their food.</p>
    <choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1">
      <prompt>Which gas is it?</prompt>
      <simpleChoice identifier="ChoiceA">Oxygen</simpleChoice>
      <simpleChoice identifier="ChoiceB">Carbon dioxide</simpleChoice>
      <simpleChoice identifier="ChoiceC">Nitrogen</simpleChoice>
    </choiceInteraction>
  </itemBody>
  <responseProcessing template="${tpl21('match_correct')}"/>
</assessmentItem>`;

/** The form of the specification's multiple-response example: mapped values, bounds, a negative default. */
export const nobleGasesQti3 = (entries: string, bounds = 'lower-bound="0" upper-bound="2" default-value="-2"') => `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${QTI3} identifier="noble-gases" title="Noble gases" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="identifier">
    <qti-correct-response><qti-value>Ne</qti-value><qti-value>Ar</qti-value></qti-correct-response>
    <qti-mapping ${bounds}>${entries}</qti-mapping>
  </qti-response-declaration>
  ${score3}
  <qti-item-body>
    <qti-choice-interaction response-identifier="RESPONSE" shuffle="true" max-choices="0">
      <qti-prompt>Which of these are noble gases?</qti-prompt>
      <qti-simple-choice identifier="Ne">Neon</qti-simple-choice>
      <qti-simple-choice identifier="N">Nitrogen</qti-simple-choice>
      <qti-simple-choice identifier="Ar">Argon</qti-simple-choice>
      <qti-simple-choice identifier="Cl">Chlorine</qti-simple-choice>
      <qti-simple-choice identifier="O">Oxygen</qti-simple-choice>
    </qti-choice-interaction>
  </qti-item-body>
  <qti-response-processing template="${tpl3('map_response')}"/>
</qti-assessment-item>`;

/** The form of the specification's missing-word example: a case-sensitive entry and a cheaper case-blind one. */
export const capitalQti3 = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${QTI3} identifier="gujarat-capital" title="Capital of Gujarat" time-dependent="false" xml:lang="en">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string">
    <qti-correct-response><qti-value>Gandhinagar</qti-value></qti-correct-response>
    <qti-mapping default-value="0">
      <qti-map-entry map-key="Gandhinagar" mapped-value="1" case-sensitive="true"/>
      <qti-map-entry map-key="gandhinagar" mapped-value="0.5"/>
    </qti-mapping>
  </qti-response-declaration>
  ${score3}
  <qti-item-body>
    <p>Fill in the missing word.</p>
    <blockquote><p>The capital of Gujarat is <qti-text-entry-interaction response-identifier="RESPONSE"/>, on the Sabarmati.</p></blockquote>
  </qti-item-body>
  <qti-response-processing template="${tpl3('map_response')}"/>
</qti-assessment-item>`;

export const capitalQti21 = `<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem ${QTI21} identifier="gujarat-capital-21" title="Capital of Gujarat" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string">
    <correctResponse><value>Gandhinagar</value></correctResponse>
    <mapping defaultValue="0">
      <mapEntry mapKey="Gandhinagar" mappedValue="1" caseSensitive="true"/>
      <mapEntry mapKey="gandhinagar" mappedValue="0.5" caseSensitive="false"/>
    </mapping>
  </responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody>
    <p>The capital of Gujarat is <textEntryInteraction responseIdentifier="RESPONSE" expectedLength="15"/>.</p>
  </itemBody>
  <responseProcessing template="${tpl21('map_response')}"/>
</assessmentItem>`;

export const orderQti3 = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${QTI3} identifier="inner-planets" title="Inner planets" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="ordered" base-type="identifier">
    <qti-correct-response><qti-value>Mercury</qti-value><qti-value>Venus</qti-value><qti-value>Earth</qti-value></qti-correct-response>
  </qti-response-declaration>
  ${score3}
  <qti-item-body>
    <p>The three planets nearest the Sun.</p>
    <qti-order-interaction response-identifier="RESPONSE" shuffle="true">
      <qti-prompt><p>Put them in order, nearest first.</p></qti-prompt>
      <qti-simple-choice identifier="Earth">Earth</qti-simple-choice>
      <qti-simple-choice identifier="Mercury">Mercury</qti-simple-choice>
      <qti-simple-choice identifier="Venus">Venus</qti-simple-choice>
    </qti-order-interaction>
  </qti-item-body>
  <qti-response-processing template="${tpl3('match_correct')}"/>
</qti-assessment-item>`;

/** The form of the specification's match example: directed pairs mapped to different values. */
export const scientistsQti3 = (values: [number, number, number, number]) => `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${QTI3} identifier="scientists" title="Scientists and discoveries" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="directedPair">
    <qti-correct-response><qti-value>N G</qti-value><qti-value>D E</qti-value><qti-value>C X</qti-value><qti-value>B X</qti-value></qti-correct-response>
    <qti-mapping default-value="0">
      <qti-map-entry map-key="N G" mapped-value="${values[0]}"/>
      <qti-map-entry map-key="D E" mapped-value="${values[1]}"/>
      <qti-map-entry map-key="C X" mapped-value="${values[2]}"/>
      <qti-map-entry map-key="B X" mapped-value="${values[3]}"/>
    </qti-mapping>
  </qti-response-declaration>
  ${score3}
  <qti-item-body>
    <qti-match-interaction response-identifier="RESPONSE" max-associations="4" shuffle="false">
      <qti-prompt>Match each scientist to the discovery they are known for.</qti-prompt>
      <qti-simple-match-set>
        <qti-simple-associable-choice identifier="N" match-max="1">Newton</qti-simple-associable-choice>
        <qti-simple-associable-choice identifier="D" match-max="1">Darwin</qti-simple-associable-choice>
        <qti-simple-associable-choice identifier="C" match-max="1">Marie Curie</qti-simple-associable-choice>
        <qti-simple-associable-choice identifier="B" match-max="1">Henri Becquerel</qti-simple-associable-choice>
      </qti-simple-match-set>
      <qti-simple-match-set>
        <qti-simple-associable-choice identifier="G" match-max="4">Gravitation</qti-simple-associable-choice>
        <qti-simple-associable-choice identifier="E" match-max="4">Evolution</qti-simple-associable-choice>
        <qti-simple-associable-choice identifier="X" match-max="4">Radioactivity</qti-simple-associable-choice>
      </qti-simple-match-set>
    </qti-match-interaction>
  </qti-item-body>
  <qti-response-processing template="${tpl3('map_response')}"/>
</qti-assessment-item>`;

/** The form of the specification's select-point example: a circle around the right place. */
export const selectPointQti3 = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${QTI3} identifier="find-mumbai" title="Find Mumbai" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="point">
    <qti-correct-response><qti-value>60 200</qti-value></qti-correct-response>
    <qti-area-mapping default-value="0">
      <qti-area-map-entry shape="circle" coords="60,200,10" mapped-value="1"/>
    </qti-area-mapping>
  </qti-response-declaration>
  ${score3}
  <qti-item-body>
    <qti-select-point-interaction response-identifier="RESPONSE" max-choices="1">
      <qti-prompt><p>Mark Mumbai on this map of India.</p></qti-prompt>
      <img src="images/india.png" width="300" height="340" alt="A map of India"/>
    </qti-select-point-interaction>
  </qti-item-body>
  <qti-response-processing template="${tpl3('map_response_point')}"/>
</qti-assessment-item>`;

export const essayQti3 = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${QTI3} identifier="monsoon-essay" title="The monsoon" adaptive="false" time-dependent="false" xml:lang="hi">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float" normal-maximum="5"/>
  <qti-item-body>
    <p>मानसून भारत की खेती को कैसे प्रभावित करता है?</p>
    <qti-extended-text-interaction response-identifier="RESPONSE" expected-lines="10"/>
  </qti-item-body>
</qti-assessment-item>`;

/** Scores QTI responses with an item's own declarations and processing, through our engine. */
export function scoreQtiXml(xml: string, responses: Record<string, QValue>): number {
  const root = parseXml(xml, 'item.xml').documentElement!;
  const declarations = childrenNamed(root, 'qti-response-declaration').map(readDeclaration);
  const processing = readProcessing(childNamed(root, 'qti-response-processing'));
  if (!processing) throw new Error('no response processing');
  return compileProcessing(declarations, processing)(responses);
}
