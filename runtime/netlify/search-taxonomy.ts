// Netlify function for /search-taxonomy.php (netlify.toml redirects the path here).
import { endpointFunction } from '../netlifyFunction.js';

export default endpointFunction('/search-taxonomy.php');
