// Netlify function for POST /api/v1/match (netlify.toml redirects the path here).
import { matchFunction } from '../endpointFunction.js';

export default matchFunction();
