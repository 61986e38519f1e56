// Netlify function for /api/v1/peptide (netlify.toml redirects the path here).
import { endpointFunction } from '../endpointFunction.js';

export default endpointFunction('/api/v1/peptide');
