export type {
  Barcode,
  BarcodeFormat,
  DataDetectorType,
  DateStyle,
  FeaturedAction,
  FeaturedActionType,
  Field,
  JsonArray,
  JsonObject,
  JsonValue,
  NumberStyle,
  Pass,
  PassBeacon,
  PassBody,
  PassIssuer,
  PassLocation,
  PassNfc,
  PassRelevantDate,
  PassStructure,
  PassStyle,
  PassTemplate,
  PassUpcomingEntry,
  StyleKey,
  StyleScheme,
  Templated,
  TemplateBody,
  TemplateValue,
  TemplateValues,
  TextAlignment,
  TransitType,
} from './types.js';
export type { Issue, IssueCode, Report, Severity } from './issues.js';
export { joinPointer, pointerToken, toReport } from './issues.js';
export { PassmintError, PassValidationError, RenderError, TemplateError } from './errors.js';
export type { PlaceholderSegment, ScanResult, Segment, TextSegment } from './placeholder/scan.js';
export { scanPlaceholders } from './placeholder/scan.js';
export type { PlaceholderNamesIn, UsedPlaceholders } from './placeholder/infer.js';
export { validateTemplate } from './template/validate.js';
export type { CompiledTemplate, CompileOptions, PlaceholderNames } from './template/compile.js';
export { compileTemplate, renderTemplate } from './template/compile.js';
export type { DeclaredOnly, UndeclaredPlaceholders } from './template/define.js';
export { definePassTemplate } from './template/define.js';
export type { BuildPassOptions } from './pass/build.js';
export { buildPass } from './pass/build.js';
export type { ValidatePassOptions } from './pass/validate.js';
export { validatePass } from './pass/validate.js';
export type { Rgb } from './rules/color.js';
export { formatRgb, parseColor, toRgbColor } from './rules/color.js';
export type { JsonText, JsonTextLocation, JsonTextPosition, ParseJsonTextOptions } from './json-text.js';
export { parseJsonText } from './json-text.js';
export { LIMITS as FIELD_LIMITS, SHARED_ROW_STYLES, SQUARE_FORMATS } from './rules/layout.js';
export { POSTER_EVENT_TAGS, SEMANTIC_BOARDING_TAGS } from './rules/style-schemes.js';
// What a pass designer draws with (the playground): image slots and sizes, the bundle's file checks, pass.strings.
export { imageLayout, imageSlot, sizeGuidance, unusedReason } from './pkpass/images.js';
export type { ImageLayout, ImageName } from './pkpass/images.js';
export { pngSize } from './pkpass/png.js';
export type { PngSize } from './pkpass/png.js';
export { checkFilesForPass } from './pkpass/pass-checks.js';
export type { BundleFile } from './pkpass/bundle-files.js';
export { encodePassStrings, parsePassStrings } from './pkpass/strings.js';
