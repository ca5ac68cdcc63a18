// `store-service`'s first import: the young generation's rule (young-generation.ts) is set before the service's
// modules load, for the command's own process only — never for a server that mounts the handler.
import { keepYoungGenerationSmall } from './young-generation.ts';

keepYoungGenerationSmall();
