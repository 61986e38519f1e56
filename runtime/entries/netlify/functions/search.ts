// Netlify function for /search.php (netlify.toml redirects the path here).
import { endpointFunction } from '../endpointFunction.js';

export default endpointFunction('/search.php');
