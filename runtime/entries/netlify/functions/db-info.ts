// Netlify function for /db-info.php (netlify.toml redirects the path here).
import { endpointFunction } from '../endpointFunction.js';

export default endpointFunction('/db-info.php');
