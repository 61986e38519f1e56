// Netlify function for /search-taxonomy.php (netlify.toml redirects the path here).
import { endpointFunction } from '../endpointFunction.js';

export default endpointFunction('/search-taxonomy.php');
