// Netlify function for /search-peptide.php (netlify.toml redirects the path here).
import { endpointFunction } from '../endpointFunction.js';

export default endpointFunction('/search-peptide.php');
