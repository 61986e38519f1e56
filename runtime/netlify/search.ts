// Netlify function for /search.php (netlify.toml redirects the path here).
import { endpointFunction } from '../netlifyFunction.js';

export default endpointFunction('/search.php');
